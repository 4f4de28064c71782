package io.tern.bench.load;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Book-keeping of one load worker's window: each slot holds at most one packet in flight.
 * Pure logic, no clock and no I/O: callers pass {@code nowNs}.
 *
 * <ul>
 *   <li>complete: the echo of the slot's outstanding sequence number arrived;</li>
 *   <li>lost: no echo within the timeout; the slot is freed (and usually reissued);</li>
 *   <li>late: an echo for a sequence already declared lost (not counted twice as loss);</li>
 *   <li>duplicate: an echo for a sequence already completed;</li>
 *   <li>reordered: an echo whose sequence is lower than one already received by that client;</li>
 *   <li>corrupt: counted by the caller via {@link #corrupt()} when the checksum fails.</li>
 * </ul>
 */
public final class SequenceTracker {
    /** Outcome of {@link #onEcho}. */
    public enum Outcome {
        COMPLETE,
        LATE,
        DUPLICATE,
        UNKNOWN
    }

    private final long[] slotSequence;
    private final long[] slotSentNs;
    private final boolean[] slotOutstanding;
    private final long[] slotLostUpTo;
    private final long[] clientLastSequence;
    private long nextSequence = 1;
    private int outstanding;
    private long lastLatencyNs;

    private long complete;
    private long lost;
    private long late;
    private long duplicate;
    private long reordered;
    private long corrupt;
    private long unknown;

    public SequenceTracker(int slots, int clients) {
        slotSequence = new long[slots];
        slotSentNs = new long[slots];
        slotOutstanding = new boolean[slots];
        slotLostUpTo = new long[slots];
        clientLastSequence = new long[clients];
    }

    /** Issues the next sequence number for {@code slot}, which must be free. */
    public long issue(int slot, long nowNs) {
        if (slotOutstanding[slot]) {
            throw new IllegalStateException("slot " + slot + " already in flight");
        }
        long seq = nextSequence++;
        slotSequence[slot] = seq;
        slotSentNs[slot] = nowNs;
        slotOutstanding[slot] = true;
        outstanding++;
        return seq;
    }

    public Outcome onEcho(int slot, long sequence, int client, long nowNs) {
        if (slot < 0 || slot >= slotSequence.length || client < 0 || client >= clientLastSequence.length) {
            unknown++;
            return Outcome.UNKNOWN;
        }
        if (sequence < clientLastSequence[client]) {
            reordered++;
        } else {
            clientLastSequence[client] = sequence;
        }
        if (slotOutstanding[slot] && slotSequence[slot] == sequence) {
            slotOutstanding[slot] = false;
            outstanding--;
            complete++;
            lastLatencyNs = nowNs - slotSentNs[slot];
            return Outcome.COMPLETE;
        }
        if (sequence <= slotLostUpTo[slot] && sequence > 0) {
            late++;
            return Outcome.LATE;
        }
        if (sequence <= slotSequence[slot]) {
            duplicate++;
            return Outcome.DUPLICATE;
        }
        unknown++;
        return Outcome.UNKNOWN;
    }

    /** Latency of the most recent {@link Outcome#COMPLETE}. */
    public long lastLatencyNs() {
        return lastLatencyNs;
    }

    /** Declares lost every outstanding packet sent before {@code nowNs - timeoutNs}; calls {@code freed} per slot. */
    public void expire(long nowNs, long timeoutNs, IntConsumer freed) {
        for (int slot = 0; slot < slotSequence.length; slot++) {
            if (slotOutstanding[slot] && nowNs - slotSentNs[slot] >= timeoutNs) {
                slotOutstanding[slot] = false;
                slotLostUpTo[slot] = slotSequence[slot];
                outstanding--;
                lost++;
                freed.accept(slot);
            }
        }
    }

    public void corrupt() {
        corrupt++;
    }

    /** Resets counters between phases; in-flight state is kept. */
    public void resetCounters() {
        complete = lost = late = duplicate = reordered = corrupt = unknown = 0;
    }

    public boolean isOutstanding(int slot) {
        return slotOutstanding[slot];
    }

    public int outstanding() {
        return outstanding;
    }

    public int slots() {
        return slotSequence.length;
    }

    public long complete() {
        return complete;
    }

    public long lost() {
        return lost;
    }

    public long late() {
        return late;
    }

    public long duplicate() {
        return duplicate;
    }

    public long reordered() {
        return reordered;
    }

    public long corruptCount() {
        return corrupt;
    }

    public long unknown() {
        return unknown;
    }

    @Override
    public String toString() {
        return "complete=" + complete + " lost=" + lost + " late=" + late + " duplicate=" + duplicate
                + " reordered=" + reordered + " corrupt=" + corrupt + " unknown=" + unknown
                + " outstanding=" + outstanding + " slots=" + Arrays.toString(new int[] {slotSequence.length});
    }
}
