package io.tern.hls.packager;

/**
 * A stretch of the stream between two discontinuities: within it, each track's input timestamps
 * map to the output timeline by one offset, and program date-times follow the media clock.
 *
 * <p>The leader (video when present) opens every epoch. The follower (audio beside video) is
 * matched to an epoch by its own generation counters: how many timestamp jumps and codec changes
 * it has had. Times are output-timeline 90 kHz ticks.
 */
final class Epoch {
    /** Why an epoch began. */
    enum Reason {
        START,
        TIMESTAMP_JUMP,
        LEADER_CODEC_CHANGE,
        FOLLOWER_CHANGE
    }

    final long discontinuitySequence;
    final Reason reason;
    final long firstMsn;
    final long startTicks;
    final long programDateTimeMs;
    final long leaderOffset;
    long endTicks = Long.MAX_VALUE;

    /** The follower generations mapped into this epoch, or -1 while not yet known. */
    long followerJumps = -1;

    long followerConfigs = -1;
    long followerOffset;

    Epoch(
            long discontinuitySequence,
            Reason reason,
            long firstMsn,
            long startTicks,
            long programDateTimeMs,
            long leaderOffset) {
        this.discontinuitySequence = discontinuitySequence;
        this.reason = reason;
        this.firstMsn = firstMsn;
        this.startTicks = startTicks;
        this.programDateTimeMs = programDateTimeMs;
        this.leaderOffset = leaderOffset;
    }

    boolean followerAssigned() {
        return followerJumps >= 0;
    }

    void assignFollower(long jumps, long configs, long offset) {
        this.followerJumps = jumps;
        this.followerConfigs = configs;
        this.followerOffset = offset;
    }

    boolean matchesFollower(long jumps, long configs) {
        return followerJumps == jumps && followerConfigs == configs;
    }

    /** Program date-time of output time {@code ticks} in this epoch, in epoch milliseconds. */
    long programDateTimeMs(long ticks) {
        return programDateTimeMs + Math.floorDiv(ticks - startTicks, 90);
    }

    boolean ended() {
        return endTicks != Long.MAX_VALUE;
    }
}
