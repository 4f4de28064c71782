package io.tern.nostr.testing;

import java.util.concurrent.TimeUnit;

/** Simulated time: monotonic nanoseconds and the wall clock move together, only when told. */
public final class FakeClock {
    public static final long START_NS = TimeUnit.HOURS.toNanos(1000);
    public static final long START_EPOCH_SECONDS = 1_700_000_000L;

    private long nowNs = START_NS;

    public long nowNs() {
        return nowNs;
    }

    public long epochSeconds() {
        return START_EPOCH_SECONDS + TimeUnit.NANOSECONDS.toSeconds(nowNs - START_NS);
    }

    public void advanceNs(long ns) {
        nowNs += ns;
    }

    public void advanceMillis(long ms) {
        advanceNs(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    public void advanceSeconds(long s) {
        advanceNs(TimeUnit.SECONDS.toNanos(s));
    }
}
