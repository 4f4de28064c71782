package io.tern.srt;

import io.tern.srt.crypto.KeyMaterial;
import io.tern.srt.crypto.ReceiveKeys;
import io.tern.srt.crypto.SendKeys;
import io.tern.srt.crypto.SrtCryptoException;
import io.tern.srt.handshake.StreamId;
import io.tern.srt.packet.Bytes;
import io.tern.srt.packet.ControlType;
import io.tern.srt.packet.LossReport;
import io.tern.srt.packet.SrtHeader;
import io.tern.srt.receiver.Receiver;
import io.tern.srt.sender.Sender;
import io.tern.srt.time.RttEstimator;
import java.net.InetSocketAddress;

/**
 * One connected SRT session, either side: the receiver and sender halves, the ACK/ACKACK/NAK
 * exchange, keepalive, key refresh, shutdown and the idle timeout. It writes into its endpoint's
 * {@link Outbox} and never calls out.
 */
final class SrtConnection implements Receiver.Events, Sender.Output, LossReport.RangeConsumer {
    static final long ACK_INTERVAL_NS = 10_000_000L;
    static final int LIGHT_ACK_PACKETS = 64;
    static final long MIN_NAK_INTERVAL_NS = 20_000_000L;
    static final long KEEPALIVE_NS = 1_000_000_000L;
    static final long KM_RETRY_NS = 250_000_000L;
    static final long MIN_SEND_DROP_NS = 1_000_000_000L;
    private static final int ACK_HISTORY = 32;
    private static final int FULL_ACK_BODY = 28;
    private static final int KM_STATE_BADSECRET = 4;

    final long sessionId;
    final int localSocket;
    final int peerSocket;
    final InetSocketAddress peer;
    final StreamId streamId;
    final int latencyMs;
    final int peerLatencyMs;
    final Receiver receiver;
    final Sender sender;
    /** The handshake answer a listener resends when the caller repeats its conclusion. */
    byte[] conclusionResponse;

    private final Outbox out;
    private final long startNs;
    private final long idleTimeoutNs;
    private final ReceiveKeys receiveKeys;
    private final RttEstimator rtt = new RttEstimator();
    private final int[] ackNumbers = new int[ACK_HISTORY];
    private final long[] ackSentNs = new long[ACK_HISTORY];
    private int ackNumber;
    private int lastFullAckSeq = -1;
    private int packetsSinceAck;
    private long nextAckNs;
    private long nextNakNs = Long.MAX_VALUE;
    private long nextKmNs = Long.MAX_VALUE;
    private long lastSentNs;
    private long lastReceivedNs;
    private long nowNs;
    private boolean closed;

    private long rateWindowNs;
    private long rateWindowPackets;
    private long rateWindowBytes;
    private long receiveRateBps;
    private long receiveRatePps;

    SrtConnection(
            Outbox out,
            long sessionId,
            int localSocket,
            int peerSocket,
            InetSocketAddress peer,
            StreamId streamId,
            long startNs,
            long nowNs,
            long peerTimeZeroNs,
            int initialSeq,
            int latencyMs,
            int peerLatencyMs,
            int receiveCapacity,
            int sendCapacity,
            ReceiveKeys receiveKeys,
            SendKeys sendKeys,
            long idleTimeoutNs) {
        this.out = out;
        this.sessionId = sessionId;
        this.localSocket = localSocket;
        this.peerSocket = peerSocket;
        this.peer = peer;
        this.streamId = streamId;
        this.startNs = startNs;
        this.latencyMs = latencyMs;
        this.peerLatencyMs = peerLatencyMs;
        this.idleTimeoutNs = idleTimeoutNs;
        this.receiveKeys = receiveKeys;
        this.receiver = new Receiver(
                initialSeq,
                receiveCapacity,
                new io.tern.srt.receiver.Tsbpd(peerTimeZeroNs, latencyMs * 1_000_000L),
                receiveKeys);
        this.sender = new Sender(initialSeq, sendCapacity, sendKeys);
        this.lastReceivedNs = nowNs;
        this.lastSentNs = nowNs;
        this.nextAckNs = nowNs + ACK_INTERVAL_NS;
        this.rateWindowNs = nowNs;
        this.nowNs = nowNs;
    }

    boolean closed() {
        return closed;
    }

    private int timestamp(long nowNs) {
        return (int) ((nowNs - startNs) / 1000);
    }

    // ---- input ----

    void onPacket(byte[] b, int off, int len, long nowNs) {
        if (closed) {
            return;
        }
        this.nowNs = nowNs;
        lastReceivedNs = nowNs;
        if (!SrtHeader.isControl(b, off)) {
            receiver.onData(b, off, len, this);
            if (++packetsSinceAck >= LIGHT_ACK_PACKETS) {
                sendLightAck();
            }
            receiver.deliverDue(nowNs, this);
            return;
        }
        int bodyOff = off + SrtHeader.LENGTH;
        int bodyLen = len - SrtHeader.LENGTH;
        switch (SrtHeader.controlType(b, off)) {
            case ControlType.ACK -> onAck(b, off, bodyOff, bodyLen);
            case ControlType.ACKACK -> onAckAck(SrtHeader.typeInfo(b, off), SrtHeader.timestamp(b, off));
            case ControlType.NAK -> LossReport.read(b, bodyOff, bodyLen, this);
            case ControlType.SHUTDOWN -> {
                receiver.deliverAll(this);
                close(SrtEvent.CloseReason.PEER_SHUTDOWN, false);
            }
            case ControlType.DROPREQ -> {
                if (bodyLen >= 8) {
                    receiver.onDropRequest(
                            Bytes.i32(b, bodyOff) & 0x7FFF_FFFF, Bytes.i32(b, bodyOff + 4) & 0x7FFF_FFFF);
                    receiver.deliverDue(nowNs, this);
                }
            }
            case ControlType.USER -> onUser(SrtHeader.subtype(b, off), b, bodyOff, bodyLen);
            case ControlType.HANDSHAKE -> {
                if (conclusionResponse != null) {
                    out.send(conclusionResponse, 0, conclusionResponse.length, peer);
                }
            }
            default -> {
                // KEEPALIVE refreshes lastReceivedNs; congestion warnings and peer errors are ignored.
            }
        }
    }

    private void onAck(byte[] b, int off, int bodyOff, int bodyLen) {
        if (bodyLen < 4) {
            return;
        }
        sender.onAck(Bytes.i32(b, bodyOff) & 0x7FFF_FFFF);
        int ackNo = SrtHeader.typeInfo(b, off);
        if (bodyLen >= 16) {
            rtt.peerEstimate(Bytes.i32(b, bodyOff + 4), Bytes.i32(b, bodyOff + 8));
            sender.peerWindow(Bytes.i32(b, bodyOff + 12));
        }
        if (bodyLen >= 16 && ackNo != 0) {
            byte[] p = out.claim();
            if (p != null) {
                SrtHeader.writeControl(p, 0, ControlType.ACKACK, 0, ackNo, timestamp(nowNs), peerSocket);
                Bytes.put32(p, SrtHeader.LENGTH, 0);
                commit(p, SrtHeader.LENGTH + 4);
            }
        }
    }

    private void onAckAck(int ackNo, int timestamp) {
        for (int i = 0; i < ACK_HISTORY; i++) {
            if (ackNumbers[i] == ackNo && ackSentNs[i] != 0) {
                rtt.sample((nowNs - ackSentNs[i]) / 1000);
                ackSentNs[i] = 0;
                receiver.tsbpd().driftSample(timestamp, nowNs);
                return;
            }
        }
    }

    /** A NAK range: retransmit. */
    @Override
    public void range(int first, int last) {
        sender.retransmit(first, last, nowNs, rtt.rttUs() * 500L, this);
    }

    private void onUser(int subtype, byte[] b, int off, int len) {
        if (subtype == ControlType.SUB_KMREQ) {
            boolean ok = false;
            if (receiveKeys != null) {
                try {
                    receiveKeys.install(KeyMaterial.parse(b, off, len));
                    ok = true;
                } catch (SrtCryptoException e) {
                    ok = false;
                }
            }
            byte[] p = out.claim();
            if (p != null) {
                SrtHeader.writeControl(p, 0, ControlType.USER, ControlType.SUB_KMRSP, 0, timestamp(nowNs), peerSocket);
                int n;
                if (ok) {
                    System.arraycopy(b, off, p, SrtHeader.LENGTH, len);
                    n = len;
                } else {
                    Bytes.put32(p, SrtHeader.LENGTH, KM_STATE_BADSECRET);
                    n = 4;
                }
                commit(p, SrtHeader.LENGTH + n);
            }
        } else if (subtype == ControlType.SUB_KMRSP && sender.keys() != null) {
            sender.keys().confirmed(b, off, len);
            if (sender.keys().announcement() == null) {
                nextKmNs = Long.MAX_VALUE;
            }
        }
    }

    // ---- the receiver's and sender's outputs ----

    @Override
    public void lost(int first, int last) {
        byte[] p = out.claim();
        if (p == null) {
            return;
        }
        SrtHeader.writeControl(p, 0, ControlType.NAK, 0, 0, timestamp(nowNs), peerSocket);
        int n = LossReport.writeRange(p, SrtHeader.LENGTH, first, last);
        commit(p, n);
        // The periodic NAK keeps its own rhythm: new losses must not postpone the re-request of old ones.
        if (nextNakNs == Long.MAX_VALUE) {
            nextNakNs = nowNs + nakIntervalNs();
        }
    }

    @Override
    public byte[] deliver(byte[] payload, int length) {
        return out.deliver(sessionId, payload, length);
    }

    @Override
    public void sendData(byte[] packet, int length) {
        byte[] p = out.claim();
        if (p != null) {
            System.arraycopy(packet, 0, p, 0, length);
            commit(p, length);
        }
    }

    @Override
    public void sendDropRequest(int messageNo, int first, int last) {
        byte[] p = out.claim();
        if (p != null) {
            SrtHeader.writeControl(p, 0, ControlType.DROPREQ, 0, messageNo, timestamp(nowNs), peerSocket);
            Bytes.put32(p, SrtHeader.LENGTH, first);
            Bytes.put32(p, SrtHeader.LENGTH + 4, last);
            commit(p, SrtHeader.LENGTH + 8);
        }
    }

    private void commit(byte[] p, int length) {
        out.commit(length, peer);
        lastSentNs = nowNs;
    }

    // ---- sending ----

    void send(byte[] payload, int off, int len, long nowNs) {
        if (closed || (receiveKeys != null && sender.keys() == null)) {
            // An encrypted session's listener side has no sending keys: never send it in clear.
            return;
        }
        this.nowNs = nowNs;
        sender.submit(payload, off, len, timestamp(nowNs), peerSocket, nowNs, this);
        if (sender.keys() != null && sender.keys().announcement() != null && nextKmNs == Long.MAX_VALUE) {
            sendKeyAnnouncement();
        }
    }

    private void sendKeyAnnouncement() {
        KeyMaterial km = sender.keys().announcement();
        byte[] p = out.claim();
        if (km == null || p == null) {
            return;
        }
        SrtHeader.writeControl(p, 0, ControlType.USER, ControlType.SUB_KMREQ, 0, timestamp(nowNs), peerSocket);
        int end = km.encode(p, SrtHeader.LENGTH);
        commit(p, end);
        nextKmNs = nowNs + KM_RETRY_NS;
    }

    // ---- timers ----

    /** libsrt's LiveCC: (RTT + 4 × RTTVar) / 2, at least 20 ms. */
    private long nakIntervalNs() {
        return Math.max(MIN_NAK_INTERVAL_NS, (rtt.rttUs() + 4 * rtt.varUs()) * 500);
    }

    private long sendDropAgeNs() {
        return Math.max(peerLatencyMs * 1_000_000L, MIN_SEND_DROP_NS) + 2 * ACK_INTERVAL_NS;
    }

    void onTimer(long nowNs) {
        if (closed) {
            return;
        }
        this.nowNs = nowNs;
        if (nowNs - lastReceivedNs >= idleTimeoutNs) {
            close(SrtEvent.CloseReason.IDLE_TIMEOUT, false);
            return;
        }
        receiver.deliverDue(nowNs, this);
        if (nowNs >= nextAckNs) {
            sendFullAck();
            nextAckNs = nowNs + ACK_INTERVAL_NS;
        }
        if (nowNs >= nextNakNs) {
            sendPeriodicNak();
        }
        sender.dropTooLate(nowNs, sendDropAgeNs(), this);
        if (nowNs >= nextKmNs) {
            nextKmNs = Long.MAX_VALUE;
            sendKeyAnnouncement();
        }
        if (nowNs - lastSentNs >= KEEPALIVE_NS) {
            byte[] p = out.claim();
            if (p != null) {
                SrtHeader.writeControl(p, 0, ControlType.KEEPALIVE, 0, 0, timestamp(nowNs), peerSocket);
                Bytes.put32(p, SrtHeader.LENGTH, 0);
                commit(p, SrtHeader.LENGTH + 4);
            }
        }
    }

    long nextDeadlineNs() {
        if (closed) {
            return Long.MAX_VALUE;
        }
        long deadlineNs = Math.min(nextAckNs, nextNakNs);
        deadlineNs = Math.min(deadlineNs, nextKmNs);
        deadlineNs = Math.min(deadlineNs, lastSentNs + KEEPALIVE_NS);
        deadlineNs = Math.min(deadlineNs, lastReceivedNs + idleTimeoutNs);
        deadlineNs = Math.min(deadlineNs, receiver.nextPlayNs());
        deadlineNs = Math.min(deadlineNs, sender.nextDropNs(sendDropAgeNs()));
        return deadlineNs;
    }

    private void sendPeriodicNak() {
        if (receiver.losses().isEmpty()) {
            nextNakNs = Long.MAX_VALUE;
            return;
        }
        byte[] p = out.claim();
        if (p != null) {
            SrtHeader.writeControl(p, 0, ControlType.NAK, 0, 0, timestamp(nowNs), peerSocket);
            int n = receiver.losses().encode(p, SrtHeader.LENGTH, Outbox.DATAGRAM_BYTES - 28 - SrtHeader.LENGTH);
            commit(p, SrtHeader.LENGTH + n);
        }
        nextNakNs = nowNs + nakIntervalNs();
    }

    private void sendLightAck() {
        packetsSinceAck = 0;
        byte[] p = out.claim();
        if (p != null) {
            SrtHeader.writeControl(p, 0, ControlType.ACK, 0, 0, timestamp(nowNs), peerSocket);
            Bytes.put32(p, SrtHeader.LENGTH, receiver.ackSeq());
            commit(p, SrtHeader.LENGTH + 4);
        }
    }

    private void sendFullAck() {
        updateRates();
        int ackSeq = receiver.ackSeq();
        if (ackSeq == lastFullAckSeq) {
            return;
        }
        byte[] p = out.claim();
        if (p == null) {
            return;
        }
        lastFullAckSeq = ackSeq;
        packetsSinceAck = 0;
        ackNumber = ackNumber == Integer.MAX_VALUE ? 1 : ackNumber + 1;
        int slot = ackNumber % ACK_HISTORY;
        ackNumbers[slot] = ackNumber;
        ackSentNs[slot] = nowNs;
        SrtHeader.writeControl(p, 0, ControlType.ACK, 0, ackNumber, timestamp(nowNs), peerSocket);
        int o = SrtHeader.LENGTH;
        Bytes.put32(p, o, ackSeq);
        Bytes.put32(p, o + 4, (int) rtt.rttUs());
        Bytes.put32(p, o + 8, (int) rtt.varUs());
        Bytes.put32(p, o + 12, receiver.available());
        Bytes.put32(p, o + 16, (int) receiveRatePps);
        Bytes.put32(p, o + 20, (int) receiveRatePps);
        Bytes.put32(p, o + 24, (int) (receiveRateBps / 8));
        commit(p, o + FULL_ACK_BODY);
    }

    private void updateRates() {
        long elapsedNs = nowNs - rateWindowNs;
        if (elapsedNs < 1_000_000_000L) {
            return;
        }
        long packets = receiver.received - rateWindowPackets;
        long bytes = receiver.bytes - rateWindowBytes;
        receiveRatePps = packets * 1_000_000_000L / elapsedNs;
        receiveRateBps = bytes * 8 * 1_000_000_000L / elapsedNs;
        rateWindowNs = nowNs;
        rateWindowPackets = receiver.received;
        rateWindowBytes = receiver.bytes;
    }

    // ---- end ----

    void close(SrtEvent.CloseReason reason, boolean sendShutdown) {
        if (closed) {
            return;
        }
        if (sendShutdown) {
            byte[] p = out.claim();
            if (p != null) {
                SrtHeader.writeControl(p, 0, ControlType.SHUTDOWN, 0, 0, timestamp(nowNs), peerSocket);
                Bytes.put32(p, SrtHeader.LENGTH, 0);
                commit(p, SrtHeader.LENGTH + 4);
            }
        }
        closed = true;
        out.event(new SrtEvent.Closed(sessionId, peer, reason, stats()));
    }

    void setNowNs(long nowNs) {
        this.nowNs = nowNs;
    }

    SrtStats stats() {
        return new SrtStats(
                sessionId,
                rtt.rttUs(),
                rtt.varUs(),
                latencyMs,
                receiver.received,
                receiver.bytes,
                receiver.lost,
                receiver.retransmitted,
                receiver.droppedTooLate,
                receiver.droppedAtClose,
                receiver.undecryptable,
                receiver.duplicate,
                receiver.beyondBuffer,
                sender.sent,
                sender.retransmitted,
                sender.dropped,
                receiveRateBps,
                receiver.capacity());
    }
}
