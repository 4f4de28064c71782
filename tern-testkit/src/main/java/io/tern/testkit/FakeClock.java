package io.tern.testkit;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.TimeUnit;

/**
 * Simulated time for engine tests: monotonic nanoseconds and a wall clock that move together, and
 * only when the test says so. Nothing here reads a real clock, so an engine test never sleeps.
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

    public void advanceSeconds(long seconds) {
        advanceNs(TimeUnit.SECONDS.toNanos(seconds));
    }

    /** The wall clock (credential expiry, event timestamps), moving with the simulated time. */
    public long epochSeconds() {
        return START_EPOCH_SECONDS + TimeUnit.NANOSECONDS.toSeconds(nowNs - START_NS);
    }

    public long epochMillis() {
        return TimeUnit.SECONDS.toMillis(START_EPOCH_SECONDS) + TimeUnit.NANOSECONDS.toMillis(nowNs - START_NS);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochSecond(START_EPOCH_SECONDS).plusNanos(nowNs - START_NS);
    }
}
