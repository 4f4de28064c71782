package io.tern.turn.engine;

import java.util.concurrent.TimeUnit;

/** Simulated time: the engine sees only what the test passes as {@code nowNs}; nothing here reads a real clock. */
final class FakeClock {
    /** Arbitrary, far from zero, so that nothing can lean on time starting at 0. */
    static final long START_NS = TimeUnit.HOURS.toNanos(1000);

    static final long START_EPOCH_SECONDS = 1_700_000_000L;

    private long nowNs = START_NS;

    long nowNs() {
        return nowNs;
    }

    void advanceNs(long deltaNs) {
        nowNs += deltaNs;
    }

    void advanceMillis(long millis) {
        advanceNs(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Wall clock for REST credential expiry, moving with the simulated time. */
    long epochSeconds() {
        return START_EPOCH_SECONDS + TimeUnit.NANOSECONDS.toSeconds(nowNs - START_NS);
    }
}
