package io.tern.turn.timer;

import java.util.Arrays;

/**
 * One hashed timer wheel for every expiry of an engine (allocations, permissions, channels,
 * reservations, peer connections). A timer lives in the slot of its deadline's tick; a slot holds
 * timers of later rotations too, which a poll leaves in place. Scheduling and cancelling are O(1)
 * and allocate nothing once a slot's array has grown to its working size.
 *
 * <p>{@link #nextDeadlineNs()} is the exact earliest deadline, or an earlier time after that timer
 * was cancelled: the event loop may wake up for nothing, never too late. It is recomputed, by a
 * scan from the current tick, only after a poll expired something, so an idle engine asks for no
 * wake-up at all and a busy one for no more than one per due timer.
 */
public final class TimerWheel {
    /** Called for each expired timer, which is already out of the wheel (it may reschedule itself). */
    @FunctionalInterface
    public interface Handler {
        void onExpiry(Expiring timer, long nowNs);
    }

    private final int tickShift;
    private final int mask;
    private final long startNs;
    private final Expiring[][] slots;
    private final int[] counts;
    private Expiring[] due = new Expiring[16];
    private long currentTick;
    private int size;
    private long earliestNs = Long.MAX_VALUE;
    private boolean earliestStale;

    /**
     * @param startNs   engine time of tick 0
     * @param tickShift a tick is {@code 1 << tickShift} ns
     * @param slotCount slots in the wheel, a power of two
     */
    public TimerWheel(long startNs, int tickShift, int slotCount) {
        if (Integer.bitCount(slotCount) != 1) {
            throw new IllegalArgumentException("slot count must be a power of two: " + slotCount);
        }
        this.tickShift = tickShift;
        this.mask = slotCount - 1;
        this.startNs = startNs;
        this.slots = new Expiring[slotCount][];
        this.counts = new int[slotCount];
        for (int i = 0; i < slotCount; i++) {
            slots[i] = new Expiring[4];
        }
    }

    public int size() {
        return size;
    }

    /** Schedules (or reschedules) {@code timer} at {@code deadlineNs}. */
    public void schedule(Expiring timer, long deadlineNs) {
        if (timer.scheduled()) {
            cancel(timer);
        }
        long tick = Math.max(tickOf(deadlineNs), currentTick);
        int slot = (int) (tick & mask);
        Expiring[] entries = slots[slot];
        int count = counts[slot];
        if (count == entries.length) {
            entries = Arrays.copyOf(entries, count * 2);
            slots[slot] = entries;
        }
        entries[count] = timer;
        counts[slot] = count + 1;
        timer.slot = slot;
        timer.index = count;
        timer.deadlineNs = deadlineNs;
        size++;
        if (deadlineNs < earliestNs) {
            earliestNs = deadlineNs;
        }
    }

    /** Removes {@code timer} if it is scheduled. */
    public void cancel(Expiring timer) {
        int slot = timer.slot;
        if (slot < 0) {
            return;
        }
        Expiring[] entries = slots[slot];
        int last = --counts[slot];
        Expiring moved = entries[last];
        entries[timer.index] = moved;
        moved.index = timer.index;
        entries[last] = null;
        timer.slot = -1;
        size--;
    }

    /**
     * The earliest deadline of a scheduled timer (possibly one since cancelled), or
     * {@link Long#MAX_VALUE} when nothing is scheduled.
     */
    public long nextDeadlineNs() {
        if (size == 0) {
            return Long.MAX_VALUE;
        }
        if (earliestStale) {
            earliestNs = scanEarliest();
            earliestStale = false;
        }
        return earliestNs;
    }

    /** Expires every timer due by {@code nowNs}, in tick order; returns how many expired. */
    public int poll(long nowNs, Handler handler) {
        long nowTick = tickOf(nowNs);
        int expired = 0;
        // After a long quiet spell each slot needs one visit, not one per elapsed tick.
        long firstTick = Math.max(currentTick, nowTick - mask);
        for (long tick = firstTick; tick <= nowTick && size > 0; tick++) {
            expired += expireSlot((int) (tick & mask), nowNs, handler);
        }
        currentTick = Math.max(currentTick, nowTick);
        if (earliestNs <= nowNs) {
            // What was earliest has expired or was cancelled: find the real one when next asked.
            earliestStale = true;
        }
        return expired;
    }

    /**
     * Takes the slot's due timers out first and only then runs their handlers: a handler cancels
     * other timers (an allocation's permissions and channels), which reorders the slot.
     */
    private int expireSlot(int slot, long nowNs, Handler handler) {
        Expiring[] entries = slots[slot];
        int dueCount = 0;
        for (int i = 0; i < counts[slot]; i++) {
            if (entries[i].deadlineNs <= nowNs) {
                if (dueCount == due.length) {
                    due = Arrays.copyOf(due, dueCount * 2);
                }
                due[dueCount++] = entries[i];
            }
        }
        int expired = 0;
        for (int i = 0; i < dueCount; i++) {
            Expiring timer = due[i];
            due[i] = null;
            if (timer.slot == slot && timer.deadlineNs <= nowNs) {
                cancel(timer);
                expired++;
                handler.onExpiry(timer, nowNs);
            }
        }
        return expired;
    }

    private long scanEarliest() {
        long earliest = Long.MAX_VALUE;
        for (int k = 0; k <= mask; k++) {
            long tick = currentTick + k;
            int slot = (int) (tick & mask);
            long tickEndNs = startNs + ((tick + 1) << tickShift);
            boolean dueThisRotation = false;
            Expiring[] entries = slots[slot];
            for (int i = 0; i < counts[slot]; i++) {
                long deadline = entries[i].deadlineNs;
                earliest = Math.min(earliest, deadline);
                dueThisRotation |= deadline < tickEndNs;
            }
            if (dueThisRotation) {
                // Every timer of a later slot in this rotation is later still, and every earlier
                // slot's timers belong to a later rotation: nothing beats this slot's earliest.
                return earliest;
            }
        }
        return earliest;
    }

    private long tickOf(long timeNs) {
        return Math.max(0, (timeNs - startNs) >> tickShift);
    }
}
