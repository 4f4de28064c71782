package io.tern.nostr.limit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
    @Test
    void burstThenSustainedRate() {
        RateLimiter r = new RateLimiter(10, 3, 100);
        long t = 1_000_000_000L;
        assertThat(r.tryAcquire("a", t)).isTrue();
        assertThat(r.tryAcquire("a", t)).isTrue();
        assertThat(r.tryAcquire("a", t)).isTrue();
        assertThat(r.tryAcquire("a", t)).isFalse();
        assertThat(r.tryAcquire("b", t)).as("keys are independent").isTrue();
        assertThat(r.tryAcquire("a", t + 99_999_999)).isFalse();
        assertThat(r.tryAcquire("a", t + 100_000_000)).isTrue();
        // a long pause refills only up to the burst
        long later = t + 60_000_000_000L;
        for (int i = 0; i < 3; i++) {
            assertThat(r.tryAcquire("a", later)).isTrue();
        }
        assertThat(r.tryAcquire("a", later)).isFalse();
    }

    @Test
    void aClockThatGoesBackDoesNotMint() {
        RateLimiter r = new RateLimiter(1, 1, 10);
        assertThat(r.tryAcquire("a", 5_000_000_000L)).isTrue();
        assertThat(r.tryAcquire("a", 1_000_000_000L)).isFalse();
    }

    @Test
    void rateZeroDisablesAndKeysAreBounded() {
        RateLimiter off = new RateLimiter(0, 1, 10);
        for (int i = 0; i < 100; i++) {
            assertThat(off.tryAcquire("a", 0)).isTrue();
        }
        RateLimiter r = new RateLimiter(1, 1, 3);
        for (int i = 0; i < 10; i++) {
            r.tryAcquire("k" + i, 0);
        }
        assertThat(r.trackedKeys()).isEqualTo(3);
    }

    @Test
    void connectionCounter() {
        ConnectionCounter c = new ConnectionCounter(2);
        assertThat(c.tryOpen("x")).isTrue();
        assertThat(c.tryOpen("x")).isTrue();
        assertThat(c.tryOpen("x")).isFalse();
        c.close("x");
        assertThat(c.openFrom("x")).isEqualTo(1);
        c.close("x");
        assertThat(c.ips()).isZero();
    }
}
