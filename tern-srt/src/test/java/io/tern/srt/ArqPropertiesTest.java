package io.tern.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.packet.LossReport;
import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;
import io.tern.srt.receiver.Receiver;
import io.tern.srt.receiver.Tsbpd;
import io.tern.srt.sender.Sender;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The ordering invariants of ARQ and TSBPD, near the sequence wrap: whatever the order and loss on
 * the way, what the receiver delivers is the sender's payloads, each once, in sequence order.
 */
class ArqPropertiesTest {
    private static final long MS = 1_000_000L;
    private static final long LATENCY_NS = 120 * MS;
    private static final int CAPACITY = 64;

    /** Delivered payloads, identified by their first two bytes. */
    private static final class Delivered implements Receiver.Events {
        final List<Integer> payloads = new ArrayList<>();

        @Override
        public void lost(int first, int last) {}

        @Override
        public byte[] deliver(byte[] payload, int length) {
            payloads.add(((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF));
            return new byte[Receiver.MAX_PAYLOAD];
        }
    }

    private static List<Integer> upTo(int n) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return all;
    }

    @Property(tries = 300)
    void anyArrivalOrderIsDeliveredInSequenceOrder(
            @ForAll @IntRange(min = 0, max = 80) int belowWrap,
            @ForAll @IntRange(min = 1, max = CAPACITY) int count,
            @ForAll long shuffleSeed) {
        int initial = SeqNo.add(SeqNo.MAX, -belowWrap);
        Receiver receiver = new Receiver(initial, CAPACITY, new Tsbpd(0, LATENCY_NS), null);
        Delivered out = new Delivered();
        List<Integer> order = upTo(count);
        Collections.shuffle(order, new Random(shuffleSeed));

        for (int i : order) {
            byte[] p = new byte[SrtHeader.LENGTH + 2];
            SrtHeader.writeData(p, 0, SeqNo.add(initial, i), SrtHeader.PP_SOLO | 1, i * 1000, 1);
            p[SrtHeader.LENGTH] = (byte) (i >>> 8);
            p[SrtHeader.LENGTH + 1] = (byte) i;
            receiver.onData(p, 0, p.length, out);
        }

        assertThat(receiver.losses().isEmpty()).isTrue();
        assertThat(receiver.ackSeq()).isEqualTo(SeqNo.add(initial, count));
        receiver.deliverDue(count * MS + LATENCY_NS, out);
        assertThat(out.payloads).isEqualTo(upTo(count));
        assertThat(receiver.droppedTooLate).isZero();
    }

    @Property(tries = 200)
    void lossRepairedByNaksEndsInOrderWithNothingMissing(
            @ForAll @IntRange(min = 0, max = 80) int belowWrap,
            @ForAll @IntRange(min = 1, max = 200) int count,
            @ForAll @IntRange(min = 0, max = 40) int lossPercent,
            @ForAll long lossSeed) {
        int initial = SeqNo.add(SeqNo.MAX, -belowWrap);
        Random loss = new Random(lossSeed);
        Receiver receiver = new Receiver(initial, CAPACITY * 4, new Tsbpd(0, LATENCY_NS), null);
        Delivered delivered = new Delivered();
        Sender.Output lossyLink = new Sender.Output() {
            @Override
            public void sendData(byte[] packet, int length) {
                if (loss.nextInt(100) >= lossPercent) {
                    receiver.onData(packet, 0, length, delivered);
                }
            }

            @Override
            public void sendDropRequest(int messageNo, int first, int last) {
                receiver.onDropRequest(first, last);
            }
        };
        Sender sender = new Sender(initial, CAPACITY * 4, null);
        long nowNs = 0;
        byte[] payload = new byte[2];
        for (int i = 0; i < count; i++) {
            payload[0] = (byte) (i >>> 8);
            payload[1] = (byte) i;
            sender.submit(payload, 0, 2, 0, 1, nowNs, lossyLink);
        }
        // Periodic NAKs until nothing is missing: the tail is lost too, so the last packet is
        // resent whole until the receiver has seen it (SRT's periodic NAK plus the sender's
        // retransmission of unacknowledged packets, without the timers).
        byte[] report = new byte[4096];
        for (int round = 0; round < 1000 && SeqNo.diff(receiver.ackSeq(), SeqNo.add(initial, count)) < 0; round++) {
            nowNs += 10 * MS;
            sender.onAck(receiver.ackSeq());
            int n = receiver.losses().encode(report, 0, report.length);
            long roundNs = nowNs;
            LossReport.read(report, 0, n, (first, last) -> sender.retransmit(first, last, roundNs, 0, lossyLink));
            if (receiver.losses().isEmpty()) {
                sender.retransmit(receiver.ackSeq(), SeqNo.add(initial, count - 1), nowNs, 0, lossyLink);
            }
        }

        receiver.deliverDue(Long.MAX_VALUE / 2, delivered);
        assertThat(delivered.payloads).isEqualTo(upTo(count));
        sender.onAck(receiver.ackSeq());
        assertThat(sender.inFlight()).isZero();
    }
}
