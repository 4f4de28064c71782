package io.tern.media.ts;

/**
 * PTS/DTS are 33-bit 90 kHz counters that wrap every 26.5 hours. Each value is placed on a
 * continuous 64-bit timeline as the one nearest to the previous value, so a wrap reads as the
 * small step it is. One unwrapper serves every track of a program, keeping audio and video on the
 * same timeline.
 */
public final class TimestampUnwrapper {
    static final long WRAP = 1L << 33;

    private long last = Long.MIN_VALUE;

    public long unwrap(long raw33) {
        long raw = raw33 & (WRAP - 1);
        if (last == Long.MIN_VALUE) {
            last = raw;
            return raw;
        }
        long base = last - Math.floorMod(last, WRAP);
        long candidate = base + raw;
        if (candidate - last > WRAP / 2) {
            candidate -= WRAP;
        } else if (last - candidate > WRAP / 2) {
            candidate += WRAP;
        }
        last = candidate;
        return candidate;
    }
}
