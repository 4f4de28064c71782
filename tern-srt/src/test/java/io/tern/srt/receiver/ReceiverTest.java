package io.tern.srt.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The receiver on simulated time: loss detection, ACK numbers, in-order TSBPD delivery, drops. */
class ReceiverTest {
    private static final long MS = 1_000_000L;
    /** The sender's time zero, in local nanoseconds. */
    private static final long BASE_NS = 1_000 * MS;

    private static final long LATENCY_NS = 120 * MS;

    /** What the receiver reported: gaps and delivered payloads (by their first byte). */
    static final class Events implements Receiver.Events {
        final List<int[]> gaps = new ArrayList<>();
        final List<Integer> delivered = new ArrayList<>();

        @Override
        public void lost(int first, int last) {
            gaps.add(new int[] {first, last});
        }

        @Override
        public byte[] deliver(byte[] payload, int length) {
            delivered.add(payload[0] & 0xFF);
            return new byte[Receiver.MAX_PAYLOAD];
        }
    }

    private final Events events = new Events();

    /** A data packet whose one payload byte is {@code tag}, sent {@code timestampUs} after time zero. */
    static byte[] packet(int seq, int timestampUs, int tag, boolean retransmitted) {
        byte[] p = new byte[SrtHeader.LENGTH + 1];
        int word = SrtHeader.PP_SOLO | (retransmitted ? SrtHeader.REXMIT_FLAG : 0) | 1;
        SrtHeader.writeData(p, 0, seq, word, timestampUs, 7);
        p[SrtHeader.LENGTH] = (byte) tag;
        return p;
    }

    private static void receive(Receiver r, int seq, int timestampUs, int tag, Events events) {
        byte[] p = packet(seq, timestampUs, tag, false);
        r.onData(p, 0, p.length, events);
    }

    private static Receiver receiver(int initialSeq, int capacity) {
        return new Receiver(initialSeq, capacity, new Tsbpd(BASE_NS, LATENCY_NS), null);
    }

    @Test
    void inOrderPacketsAreDeliveredAtTheirPlayTimeAndNotBefore() {
        Receiver r = receiver(10, 16);
        receive(r, 10, 0, 0, events);
        receive(r, 11, 20_000, 1, events);

        assertThat(r.nextPlayNs()).isEqualTo(BASE_NS + LATENCY_NS);
        r.deliverDue(BASE_NS + LATENCY_NS - 1, events);
        assertThat(events.delivered).isEmpty();
        r.deliverDue(BASE_NS + LATENCY_NS, events);
        assertThat(events.delivered).containsExactly(0);
        assertThat(r.nextPlayNs()).isEqualTo(BASE_NS + 20 * MS + LATENCY_NS);
        r.deliverDue(BASE_NS + 20 * MS + LATENCY_NS, events);
        assertThat(events.delivered).containsExactly(0, 1);
        assertThat(r.nextPlayNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.available()).isEqualTo(16);
    }

    @Test
    void aGapIsReportedOnceAndHoldsTheAckNumberUntilFilled() {
        Receiver r = receiver(10, 16);
        receive(r, 10, 0, 0, events);
        receive(r, 13, 3000, 3, events);

        assertThat(events.gaps).containsExactly(new int[] {11, 12});
        assertThat(r.lost).isEqualTo(2);
        assertThat(r.ackSeq()).isEqualTo(11);
        assertThat(r.losses().packets()).isEqualTo(2);

        byte[] resent = packet(11, 1000, 1, true);
        r.onData(resent, 0, resent.length, events);
        assertThat(r.retransmitted).isEqualTo(1);
        assertThat(r.ackSeq()).isEqualTo(12);
        receive(r, 12, 2000, 2, events);
        assertThat(r.ackSeq()).as("no loss left: one past the largest").isEqualTo(14);
        assertThat(events.gaps).hasSize(1);

        r.deliverDue(BASE_NS + LATENCY_NS + 3 * MS, events);
        assertThat(events.delivered).containsExactly(0, 1, 2, 3);
    }

    @Test
    void duplicatesAndPacketsBeyondTheBufferAreCountedAndIgnored() {
        Receiver r = receiver(10, 8);
        receive(r, 10, 0, 0, events);
        receive(r, 10, 0, 9, events);
        receive(r, 18, 0, 9, events);
        r.deliverDue(BASE_NS + LATENCY_NS, events);
        receive(r, 10, 0, 9, events);

        assertThat(r.duplicate).isEqualTo(2);
        assertThat(r.beyondBuffer).isEqualTo(1);
        assertThat(events.delivered).containsExactly(0);
        assertThat(r.received).isEqualTo(4);
    }

    @Test
    void aGapWhoseSuccessorIsDueIsDroppedTooLate() {
        Receiver r = receiver(10, 16);
        receive(r, 10, 0, 0, events);
        receive(r, 13, 30_000, 3, events);

        r.deliverDue(BASE_NS + LATENCY_NS + 29 * MS, events);
        assertThat(events.delivered).containsExactly(0);
        assertThat(r.nextPlayNs()).isEqualTo(BASE_NS + 30 * MS + LATENCY_NS);

        r.deliverDue(BASE_NS + 30 * MS + LATENCY_NS, events);
        assertThat(events.delivered).containsExactly(0, 3);
        assertThat(r.droppedTooLate).isEqualTo(2);
        assertThat(r.losses().isEmpty()).as("nobody asks for what was given up").isTrue();
        assertThat(r.ackSeq()).isEqualTo(14);

        byte[] late = packet(11, 10_000, 1, true);
        r.onData(late, 0, late.length, events);
        assertThat(r.duplicate).as("arriving after its drop").isEqualTo(1);
    }

    @Test
    void aDropRequestStopsTheNaksAndSkipsTheRangeAtTheHead() {
        Receiver r = receiver(10, 16);
        receive(r, 10, 0, 0, events);
        receive(r, 14, 40_000, 4, events);
        r.deliverDue(BASE_NS + LATENCY_NS, events);

        r.onDropRequest(11, 12);
        assertThat(r.losses().packets()).isEqualTo(1);
        assertThat(r.losses().firstSeq()).isEqualTo(13);
        assertThat(r.droppedTooLate).isEqualTo(2);
        assertThat(r.ackSeq()).isEqualTo(13);

        r.onDropRequest(13, 13);
        assertThat(r.losses().isEmpty()).isTrue();
        r.deliverDue(BASE_NS + 40 * MS + LATENCY_NS, events);
        assertThat(events.delivered).containsExactly(0, 4);
    }

    @Test
    void aDropRequestPastTheLargestMovesTheHeadWithoutALoss() {
        Receiver r = receiver(10, 16);
        r.onDropRequest(10, 12);

        assertThat(r.droppedTooLate).isEqualTo(3);
        assertThat(r.ackSeq()).isEqualTo(13);
        receive(r, 13, 0, 3, events);
        assertThat(events.gaps).isEmpty();
    }

    @Test
    void closingHandsOverWhatIsHeldSkippingTheGaps() {
        Receiver r = receiver(10, 16);
        receive(r, 10, 0, 0, events);
        receive(r, 12, 0, 2, events);
        receive(r, 15, 0, 5, events);

        r.deliverAll(events);

        assertThat(events.delivered).containsExactly(0, 2, 5);
        assertThat(r.droppedAtClose).isEqualTo(3);
        assertThat(r.losses().isEmpty()).isTrue();
    }

    @Test
    void sequenceNumbersWrapFromMaxToZero() {
        Receiver r = receiver(SeqNo.MAX - 1, 16);
        receive(r, SeqNo.MAX - 1, 0, 0, events);
        receive(r, 1, 0, 3, events);

        assertThat(events.gaps).containsExactly(new int[] {SeqNo.MAX, 0});
        assertThat(r.ackSeq()).isEqualTo(SeqNo.MAX);
        receive(r, 0, 0, 2, events);
        receive(r, SeqNo.MAX, 0, 1, events);
        assertThat(r.ackSeq()).isEqualTo(2);

        r.deliverDue(BASE_NS + LATENCY_NS, events);
        assertThat(events.delivered).containsExactly(0, 1, 2, 3);
    }

    @Test
    void runtPacketsAreIgnored() {
        Receiver r = receiver(10, 16);
        byte[] header = new byte[SrtHeader.LENGTH];
        SrtHeader.writeData(header, 0, 10, SrtHeader.PP_SOLO, 0, 7);
        r.onData(header, 0, header.length, events);
        assertThat(r.received).isZero();
        assertThat(r.ackSeq()).isEqualTo(10);
    }
}
