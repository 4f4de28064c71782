package io.tern.hls.packager;

/**
 * The one owner of the stream's segment slots and epochs: the leader opens them, the follower
 * and the playlists read them. Bounded: slots older than the renditions retain are dropped.
 */
final class StreamTimeline {
    private static final int MAX_SLOTS = 4096;

    private final Ring<SegmentSlot> slots = new Ring<>();
    private final Ring<Epoch> epochs = new Ring<>();
    private long nextMsn;
    private long discontinuities;

    /** Opens the stream's first epoch, or a new one after a discontinuity. */
    Epoch openEpoch(Epoch.Reason reason, long startTicks, long programDateTimeMs, long leaderOffset) {
        if (!epochs.isEmpty()) {
            Epoch last = epochs.last();
            if (!last.ended()) {
                last.endTicks = startTicks;
            }
            discontinuities++;
            programDateTimeMs = Math.max(programDateTimeMs, last.programDateTimeMs(last.endTicks));
        }
        Epoch e = new Epoch(discontinuities, reason, nextMsn, startTicks, programDateTimeMs, leaderOffset);
        epochs.addLast(e);
        if (epochs.size() > MAX_SLOTS) {
            epochs.removeFirst();
        }
        addSlot(startTicks, e);
        return e;
    }

    /** Ends the current epoch where the leader's last sample ends. */
    void endEpoch(long endTicks) {
        if (!epochs.isEmpty() && !epochs.last().ended()) {
            epochs.last().endTicks = endTicks;
        }
    }

    /** Cuts a new segment inside the current epoch. */
    SegmentSlot cut(long startTicks) {
        return addSlot(startTicks, epochs.last());
    }

    private SegmentSlot addSlot(long startTicks, Epoch epoch) {
        SegmentSlot slot = new SegmentSlot(nextMsn++, startTicks, epoch);
        slots.addLast(slot);
        if (slots.size() > MAX_SLOTS) {
            slots.removeFirst();
        }
        return slot;
    }

    boolean started() {
        return !epochs.isEmpty();
    }

    Epoch currentEpoch() {
        return epochs.isEmpty() ? null : epochs.last();
    }

    int epochCount() {
        return epochs.size();
    }

    Epoch epoch(int i) {
        return epochs.get(i);
    }

    /** The slot with {@code msn}, or null if unknown or dropped. */
    SegmentSlot slot(long msn) {
        if (slots.isEmpty()) {
            return null;
        }
        long first = slots.first().msn();
        if (msn < first || msn > slots.last().msn()) {
            return null;
        }
        return slots.get((int) (msn - first));
    }

    SegmentSlot lastSlot() {
        return slots.isEmpty() ? null : slots.last();
    }
}
