package io.tern.media;

/**
 * Media timestamps are 90 kHz ticks everywhere in Tern: MPEG-TS carries them natively and RTMP's
 * milliseconds convert exactly (× 90), so no ingest rounds. Packagers convert to each track's own
 * timescale when they write.
 */
public final class MediaTime {
    public static final int TICKS_PER_SECOND = 90_000;
    public static final int TICKS_PER_MS = 90;

    private MediaTime() {}

    public static long fromMillis(long millis) {
        return millis * TICKS_PER_MS;
    }

    public static long toMillis(long ticks) {
        return Math.floorDiv(ticks, TICKS_PER_MS);
    }

    public static long toNanos(long ticks) {
        return Math.multiplyExact(ticks, 100_000L) / 9;
    }

    /** {@code ticks} in a clock of {@code timescale} Hz, rounded down. */
    public static long rescale(long ticks, int timescale) {
        return Math.floorDiv(Math.multiplyExact(ticks, timescale), TICKS_PER_SECOND);
    }
}
