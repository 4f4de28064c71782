package io.tern.server.origin.stream;

/**
 * The ingest bitrate over the last few seconds: media bytes counted into one-second buckets of a
 * ring, so the rate follows the publisher without a per-frame allocation. Confined to the stream's
 * event loop.
 */
final class IngestMeter {
    static final int SECONDS = 5;
    private static final long SECOND_NS = 1_000_000_000L;

    private final long[] bytes = new long[SECONDS + 1];
    private long currentSecond = Long.MIN_VALUE;
    private final long startNs;

    IngestMeter(long startNs) {
        this.startNs = startNs;
    }

    void add(int mediaBytes, long nowNs) {
        advance(nowNs);
        bytes[(int) Math.floorMod(currentSecond, bytes.length)] += mediaBytes;
    }

    /** Bits per second over the last {@link #SECONDS} whole seconds (fewer at the start). */
    long bitsPerSecond(long nowNs) {
        advance(nowNs);
        long seconds = Math.min(SECONDS, Math.max(1, (nowNs - startNs) / SECOND_NS));
        long sum = 0;
        for (int i = 1; i <= seconds; i++) {
            sum += bytes[(int) Math.floorMod(currentSecond - i, bytes.length)];
        }
        return sum * 8 / seconds;
    }

    private void advance(long nowNs) {
        long second = Math.floorDiv(nowNs - startNs, SECOND_NS);
        if (currentSecond == Long.MIN_VALUE) {
            currentSecond = second;
            return;
        }
        long steps = Math.min(second - currentSecond, bytes.length);
        for (long i = 1; i <= steps; i++) {
            bytes[(int) Math.floorMod(currentSecond + i, bytes.length)] = 0;
        }
        if (second > currentSecond) {
            currentSecond = second;
        }
    }
}
