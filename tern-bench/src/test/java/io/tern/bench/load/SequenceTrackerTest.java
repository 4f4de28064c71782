package io.tern.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
    private static final long MS = 1_000_000;

    @Test
    void completesInOrderEchoesAndMeasuresLatency() {
        SequenceTracker t = new SequenceTracker(2, 1);
        long a = t.issue(0, 0);
        long b = t.issue(1, 10 * MS);
        assertThat(t.onEcho(0, a, 0, 5 * MS)).isEqualTo(SequenceTracker.Outcome.COMPLETE);
        assertThat(t.lastLatencyNs()).isEqualTo(5 * MS);
        assertThat(t.onEcho(1, b, 0, 12 * MS)).isEqualTo(SequenceTracker.Outcome.COMPLETE);
        assertThat(t.complete()).isEqualTo(2);
        assertThat(t.outstanding()).isZero();
        assertThat(t.reordered() + t.lost() + t.duplicate()).isZero();
    }

    @Test
    void countsReorderingPerClient() {
        SequenceTracker t = new SequenceTracker(2, 1);
        long a = t.issue(0, 0);
        long b = t.issue(1, 0);
        t.onEcho(1, b, 0, MS);
        t.onEcho(0, a, 0, MS);
        assertThat(t.reordered()).isEqualTo(1);
        assertThat(t.complete()).isEqualTo(2);
    }

    @Test
    void lossIsDeclaredAfterTimeoutAndLateEchoIsNotCountedTwice() {
        SequenceTracker t = new SequenceTracker(2, 1);
        long a = t.issue(0, 0);
        t.issue(1, 900 * MS);
        List<Integer> freed = new ArrayList<>();
        t.expire(1000 * MS, 1000 * MS, freed::add);
        assertThat(freed).containsExactly(0);
        assertThat(t.lost()).isEqualTo(1);
        assertThat(t.outstanding()).isEqualTo(1);
        long c = t.issue(0, 1000 * MS);
        assertThat(t.onEcho(0, a, 0, 1001 * MS)).isEqualTo(SequenceTracker.Outcome.LATE);
        assertThat(t.onEcho(0, c, 0, 1002 * MS)).isEqualTo(SequenceTracker.Outcome.COMPLETE);
        assertThat(t.lost()).isEqualTo(1);
        assertThat(t.late()).isEqualTo(1);
    }

    @Test
    void duplicatesAndGarbageAreCounted() {
        SequenceTracker t = new SequenceTracker(1, 1);
        long a = t.issue(0, 0);
        t.onEcho(0, a, 0, MS);
        assertThat(t.onEcho(0, a, 0, 2 * MS)).isEqualTo(SequenceTracker.Outcome.DUPLICATE);
        assertThat(t.onEcho(7, a, 0, 2 * MS)).isEqualTo(SequenceTracker.Outcome.UNKNOWN);
        assertThat(t.onEcho(0, 999, 0, 2 * MS)).isEqualTo(SequenceTracker.Outcome.UNKNOWN);
        assertThat(t.duplicate()).isEqualTo(1);
        assertThat(t.unknown()).isEqualTo(2);
    }

    @Test
    void payloadChecksumDetectsCorruptionOfAnyByte() {
        Payload p = new Payload();
        for (int len : new int[] {Payload.HEADER_BYTES, 160, 1200}) {
            byte[] b = new byte[len + 4];
            p.write(b, 4, len, 3, 5, 123_456_789_012L, 9);
            assertThat(p.verify(b, 4, len)).isTrue();
            assertThat(Payload.worker(b, 4)).isEqualTo(3);
            assertThat(Payload.slot(b, 4)).isEqualTo(5);
            assertThat(Payload.sequence(b, 4)).isEqualTo(123_456_789_012L);
            assertThat(Payload.client(b, 4)).isEqualTo(9);
            for (int i = 0; i < len; i++) {
                b[4 + i] ^= 0x01;
                assertThat(p.verify(b, 4, len))
                        .as("flipped byte %d of %d", i, len)
                        .isFalse();
                b[4 + i] ^= 0x01;
            }
            assertThat(p.verify(b, 4, len - 1)).isFalse(); // truncated
        }
    }
}
