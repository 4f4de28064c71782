package io.tern.srt.receiver;

/**
 * Timestamp-based packet delivery (draft-sharabayko-srt §4.5): a packet plays at {@code base +
 * timestamp + latency}, where {@code base} is the local time of the sender's time zero, set from
 * the conclusion handshake, and corrected for clock drift.
 *
 * <p>Timestamps are 32-bit microseconds that wrap every 71.6 minutes; they are unwrapped to 64 bits
 * against the largest seen. Drift follows libsrt's {@code DriftTracer}: each ACKACK gives a sample
 * of {@code arrival - (base + timestamp)}; every {@value #DRIFT_SAMPLES} samples the mean is taken,
 * and when it exceeds {@value #MAX_DRIFT_US} µs the base moves by it.
 */
public final class Tsbpd {
    static final int DRIFT_SAMPLES = 1000;
    static final long MAX_DRIFT_US = 5_000;
    private static final long WRAP = 1L << 32;

    private long baseNs;
    private final long latencyNs;
    private long largestUs = -1;
    private long driftSumNs;
    private int driftCount;
    private long lastDriftNs;

    public Tsbpd(long baseNs, long latencyNs) {
        this.baseNs = baseNs;
        this.latencyNs = latencyNs;
    }

    /** The 64-bit microsecond timestamp for a 32-bit one from the wire. */
    public long unwrap(int timestamp) {
        long raw = timestamp & 0xFFFF_FFFFL;
        if (largestUs < 0) {
            largestUs = raw;
            return raw;
        }
        long candidate = (largestUs & ~(WRAP - 1)) + raw;
        if (candidate - largestUs < -(WRAP / 2)) {
            candidate += WRAP;
        } else if (candidate - largestUs > WRAP / 2 && candidate >= WRAP) {
            candidate -= WRAP;
        }
        if (candidate > largestUs) {
            largestUs = candidate;
        }
        return candidate;
    }

    public long playTimeNs(long timestampUs) {
        return baseNs + timestampUs * 1000 + latencyNs;
    }

    public long latencyNs() {
        return latencyNs;
    }

    public void driftSample(int timestamp, long arrivalNs) {
        long timestampUs = unwrap(timestamp);
        driftSumNs += arrivalNs - (baseNs + timestampUs * 1000);
        if (++driftCount < DRIFT_SAMPLES) {
            return;
        }
        long meanNs = driftSumNs / driftCount;
        driftSumNs = 0;
        driftCount = 0;
        lastDriftNs = meanNs;
        if (Math.abs(meanNs) > MAX_DRIFT_US * 1000) {
            baseNs += meanNs;
        }
    }

    public long driftNs() {
        return lastDriftNs;
    }
}
