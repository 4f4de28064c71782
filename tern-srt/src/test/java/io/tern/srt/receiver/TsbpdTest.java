package io.tern.srt.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Play times and drift correction, on simulated time. */
class TsbpdTest {
    private static final long MS = 1_000_000L;

    @Test
    void aPacketPlaysAtBasePlusTimestampPlusLatency() {
        Tsbpd t = new Tsbpd(5_000 * MS, 120 * MS);
        assertThat(t.playTimeNs(0)).isEqualTo(5_120 * MS);
        assertThat(t.playTimeNs(t.unwrap(250_000))).isEqualTo(5_370 * MS);
        assertThat(t.latencyNs()).isEqualTo(120 * MS);
    }

    @Test
    void playTimesKeepGrowingAcrossTheTimestampWrap() {
        Tsbpd t = new Tsbpd(0, 0);
        long before = t.playTimeNs(t.unwrap(0xFFFF_FF00));
        long after = t.playTimeNs(t.unwrap(0x0000_0100));
        assertThat(after - before).isEqualTo(0x200 * 1000L);
        assertThat(t.unwrap(0x7FFF_0000)).as("well after the wrap").isEqualTo(0x1_7FFF_0000L);
    }

    @Test
    void driftBelowTheThresholdLeavesTheBaseAlone() {
        Tsbpd t = new Tsbpd(0, 0);
        for (int i = 0; i < Tsbpd.DRIFT_SAMPLES; i++) {
            t.driftSample(i * 1000, i * MS + 3 * MS);
        }
        assertThat(t.driftNs()).isEqualTo(3 * MS);
        assertThat(t.playTimeNs(0)).isZero();
    }

    @Test
    void driftAboveTheThresholdMovesTheBaseByTheMean() {
        Tsbpd t = new Tsbpd(0, 0);
        for (int i = 0; i < Tsbpd.DRIFT_SAMPLES - 1; i++) {
            t.driftSample(i * 1000, i * MS + 8 * MS);
        }
        assertThat(t.driftNs()).as("no mean before a full window").isZero();
        t.driftSample(999 * 1000, 999 * MS + 8 * MS);
        assertThat(t.driftNs()).isEqualTo(8 * MS);
        assertThat(t.playTimeNs(0)).isEqualTo(8 * MS);
    }

    @Test
    void aSenderClockRunningSlowIsFollowedBackwardsToo() {
        Tsbpd t = new Tsbpd(100 * MS, 0);
        for (int i = 0; i < Tsbpd.DRIFT_SAMPLES; i++) {
            t.driftSample(i * 1000, 100 * MS + i * MS - 6 * MS);
        }
        assertThat(t.playTimeNs(0)).isEqualTo(94 * MS);
    }
}
