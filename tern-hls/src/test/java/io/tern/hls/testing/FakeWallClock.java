package io.tern.hls.testing;

import io.tern.hls.packager.WallClock;

/** A wall clock the test moves. */
public final class FakeWallClock implements WallClock {
    public long nowMs = 1_764_619_200_000L; // 2025-12-01T20:00:00Z

    @Override
    public long epochMillis() {
        return nowMs;
    }
}
