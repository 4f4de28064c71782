package io.tern.turn.testing;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * Simulated time: the engine sees only what the test passes as {@code nowNs}, and a wall clock
 * that moves with it; nothing here reads a real clock.
 */
public final class FakeClock implements InstantSource {
    /** Arbitrary, far from zero, so that nothing can lean on time starting at 0. */
    public static final long START_NS = TimeUnit.HOURS.toNanos(1000);

    public static final long START_EPOCH_SECONDS = 1_700_000_000L;

    private long nowNs = START_NS;

    public long nowNs() {
        return nowNs;
    }

    public void advanceNs(long deltaNs) {
        nowNs += deltaNs;
    }

    public void advanceMillis(long millis) {
        advanceNs(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Wall clock for REST credential expiry, moving with the simulated time. */
    public long epochSeconds() {
        return START_EPOCH_SECONDS + TimeUnit.NANOSECONDS.toSeconds(nowNs - START_NS);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochSecond(START_EPOCH_SECONDS).plusNanos(nowNs - START_NS);
    }
}
