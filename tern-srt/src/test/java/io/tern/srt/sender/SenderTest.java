package io.tern.srt.sender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sender on simulated time: what it sends, keeps, resends and gives up. */
class SenderTest {
    private static final long MS = 1_000_000L;
    private static final int DEST = 0x1234;

    /** What the sender put on the wire, copied (the ring reuses its arrays). */
    private static final class Wire implements Sender.Output {
        final List<byte[]> data = new ArrayList<>();
        final List<int[]> dropRequests = new ArrayList<>();

        @Override
        public void sendData(byte[] packet, int length) {
            data.add(java.util.Arrays.copyOf(packet, length));
        }

        @Override
        public void sendDropRequest(int messageNo, int first, int last) {
            dropRequests.add(new int[] {messageNo, first, last});
        }

        List<Integer> sequences() {
            return data.stream().map(p -> SrtHeader.sequence(p, 0)).toList();
        }

        boolean retransmitted(int index) {
            return (SrtHeader.messageWord(data.get(index), 0) & SrtHeader.REXMIT_FLAG) != 0;
        }
    }

    private final Wire wire = new Wire();

    private static void submit(Sender s, int count, long nowNs, Wire out) {
        for (int i = 0; i < count; i++) {
            s.submit(new byte[] {(byte) i, 2, 3}, 0, 3, 1000 * i, DEST, nowNs, out);
        }
    }

    @Test
    void eachPayloadIsOnePacketSentAtOnceWithTheNextSequenceAndMessageNumber() {
        Sender s = new Sender(100, 8, null);
        submit(s, 3, 0, wire);

        assertThat(wire.sequences()).containsExactly(100, 101, 102);
        byte[] first = wire.data.get(0);
        assertThat(first).hasSize(SrtHeader.LENGTH + 3);
        int word = SrtHeader.messageWord(first, 0);
        assertThat(word & SrtHeader.PP_SOLO).isEqualTo(SrtHeader.PP_SOLO);
        assertThat(word & SrtHeader.MSGNO_MASK).isEqualTo(1);
        assertThat(SrtHeader.messageWord(wire.data.get(2), 0) & SrtHeader.MSGNO_MASK)
                .isEqualTo(3);
        assertThat(SrtHeader.keyFlags(first, 0)).isEqualTo(SrtHeader.KK_NONE);
        assertThat(SrtHeader.timestamp(wire.data.get(1), 0)).isEqualTo(1000);
        assertThat(SrtHeader.destSocket(first, 0)).isEqualTo(DEST);
        assertThat(s.inFlight()).isEqualTo(3);
        assertThat(s.sent).isEqualTo(3);
    }

    @Test
    void payloadsOutsideOneToMaxAreRefused() {
        Sender s = new Sender(0, 8, null);
        assertThatThrownBy(() -> s.submit(new byte[0], 0, 0, 0, DEST, 0, wire))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] big = new byte[Sender.MAX_PAYLOAD + 1];
        assertThatThrownBy(() -> s.submit(big, 0, big.length, 0, DEST, 0, wire))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Sender(0, 12, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAckReleasesWhatCameBeforeItAndIgnoresStaleOrFutureAcks() {
        Sender s = new Sender(100, 8, null);
        submit(s, 5, 0, wire);

        s.onAck(103);
        assertThat(s.inFlight()).isEqualTo(2);
        s.onAck(101);
        assertThat(s.inFlight()).as("an older ACK moves nothing back").isEqualTo(2);
        s.onAck(110);
        assertThat(s.inFlight()).as("an ACK past what was sent is ignored").isEqualTo(2);
        s.onAck(105);
        assertThat(s.inFlight()).isZero();
    }

    @Test
    void aNakResendsTheHeldPacketsWithTheRetransmissionFlag() {
        Sender s = new Sender(100, 8, null);
        submit(s, 5, 0, wire);
        wire.data.clear();

        s.retransmit(101, 102, 50 * MS, 10 * MS, wire);

        assertThat(wire.sequences()).containsExactly(101, 102);
        assertThat(wire.retransmitted(0)).isTrue();
        assertThat(s.retransmitted).isEqualTo(2);
    }

    @Test
    void aNakIsClippedToWhatIsStillHeld() {
        Sender s = new Sender(100, 8, null);
        submit(s, 5, 0, wire);
        s.onAck(102);
        wire.data.clear();

        s.retransmit(98, 200, 50 * MS, 10 * MS, wire);

        assertThat(wire.sequences()).containsExactly(102, 103, 104);
        wire.data.clear();
        s.retransmit(90, 101, 100 * MS, 10 * MS, wire);
        assertThat(wire.data).as("everything asked for was acknowledged").isEmpty();
    }

    @Test
    void aNakThatCrossedTheRetransmissionDoesNotDoubleIt() {
        Sender s = new Sender(100, 8, null);
        submit(s, 3, 0, wire);
        wire.data.clear();

        s.retransmit(100, 100, 50 * MS, 10 * MS, wire);
        s.retransmit(100, 100, 55 * MS, 10 * MS, wire);
        assertThat(wire.data).hasSize(1);
        s.retransmit(100, 100, 60 * MS, 10 * MS, wire);
        assertThat(wire.data).as("10 ms after the last resend it goes again").hasSize(2);
        s.retransmit(101, 101, 5 * MS, 10 * MS, wire);
        assertThat(wire.data).as("5 ms after its first send: too soon").hasSize(2);
    }

    @Test
    void tooOldPacketsAreDroppedWithOneDropRequestForTheRange() {
        Sender s = new Sender(100, 8, null);
        submit(s, 2, 0, wire);
        submit(s, 1, 30 * MS, wire);

        assertThat(s.nextDropNs(100 * MS)).isEqualTo(100 * MS + 1);
        s.dropTooLate(100 * MS, 100 * MS, wire);
        assertThat(wire.dropRequests).as("exactly max age is still in time").isEmpty();

        s.dropTooLate(100 * MS + 1, 100 * MS, wire);
        assertThat(wire.dropRequests).containsExactly(new int[] {1, 100, 101});
        assertThat(s.dropped).isEqualTo(2);
        assertThat(s.inFlight()).isEqualTo(1);
        assertThat(s.nextDropNs(100 * MS)).isEqualTo(130 * MS + 1);

        s.onAck(103);
        assertThat(s.nextDropNs(100 * MS)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aFullRingGivesUpItsOldestPacketForTheNewest() {
        Sender s = new Sender(100, 4, null);
        submit(s, 4, 0, wire);
        submit(s, 1, 0, wire);

        assertThat(wire.dropRequests).containsExactly(new int[] {1, 100, 100});
        assertThat(s.inFlight()).isEqualTo(4);
        assertThat(s.dropped).isEqualTo(1);
        wire.data.clear();
        s.retransmit(100, 104, 50 * MS, 0, wire);
        assertThat(wire.sequences()).containsExactly(101, 102, 103, 104);
    }

    @Test
    void sequenceNumbersWrapFromMaxToZero() {
        Sender s = new Sender(SeqNo.MAX - 1, 8, null);
        submit(s, 4, 0, wire);

        assertThat(wire.sequences()).containsExactly(SeqNo.MAX - 1, SeqNo.MAX, 0, 1);
        assertThat(s.inFlight()).isEqualTo(4);
        wire.data.clear();
        s.retransmit(SeqNo.MAX, 0, 50 * MS, 0, wire);
        assertThat(wire.sequences()).containsExactly(SeqNo.MAX, 0);
        s.onAck(1);
        assertThat(s.inFlight()).isEqualTo(1);
    }

    @Test
    void thePeerWindowIsNeverBelowOne() {
        Sender s = new Sender(0, 8, null);
        assertThat(s.peerWindow()).isEqualTo(8);
        s.peerWindow(0);
        assertThat(s.peerWindow()).isEqualTo(1);
        s.peerWindow(5);
        assertThat(s.peerWindow()).isEqualTo(5);
    }
}
