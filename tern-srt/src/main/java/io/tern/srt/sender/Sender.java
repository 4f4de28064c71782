package io.tern.srt.sender;

import io.tern.srt.crypto.SendKeys;
import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;

/**
 * The sending half of a connection in live mode: every submitted payload becomes one data packet
 * sent at once and kept, already encrypted, in a ring until the peer acknowledges it, a NAK asks
 * for it again, or it is too old to play and is dropped (then the peer is told with a DROPREQ).
 */
public final class Sender {
    /** Where the sender puts packets; implemented by the connection. */
    public interface Output {
        void sendData(byte[] packet, int length);

        void sendDropRequest(int messageNo, int first, int last);
    }

    public static final int MAX_PAYLOAD = 1456;

    private final int capacity;
    private final int mask;
    private final byte[][] packets;
    private final int[] lengths;
    private final long[] submittedNs;
    private final long[] lastSentNs;
    private final SendKeys keys;

    /** The oldest packet not yet acknowledged. */
    private int oldest;
    /** The next sequence number to assign. */
    private int next;

    private int nextMessage = 1;
    private int peerWindow;

    public long sent;
    public long retransmitted;
    public long dropped;

    public Sender(int initialSeq, int capacity, SendKeys keys) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is not a power of two");
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.packets = new byte[capacity][];
        this.lengths = new int[capacity];
        this.submittedNs = new long[capacity];
        this.lastSentNs = new long[capacity];
        this.keys = keys;
        this.oldest = initialSeq;
        this.next = initialSeq;
        this.peerWindow = capacity;
    }

    public SendKeys keys() {
        return keys;
    }

    public int inFlight() {
        return SeqNo.diff(next, oldest);
    }

    public void peerWindow(int packetsFree) {
        peerWindow = Math.max(1, packetsFree);
    }

    /** Packs, encrypts, keeps and sends one payload. */
    public void submit(byte[] payload, int off, int len, int timestampUs, int destSocket, long nowNs, Output out) {
        if (len <= 0 || len > MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload of " + len + " bytes (1 to " + MAX_PAYLOAD + ")");
        }
        if (inFlight() >= capacity) {
            // Live mode: the oldest packet is worth less than the newest; give it up.
            dropOldest(out);
        }
        int seq = next;
        next = SeqNo.next(next);
        int slot = seq & mask;
        byte[] p = packets[slot];
        if (p == null) {
            p = packets[slot] = new byte[SrtHeader.LENGTH + MAX_PAYLOAD];
        }
        System.arraycopy(payload, off, p, SrtHeader.LENGTH, len);
        int kk = keys == null ? SrtHeader.KK_NONE : keys.encrypt(seq, p, SrtHeader.LENGTH, len);
        int message = nextMessage;
        nextMessage = (nextMessage + 1) & SrtHeader.MSGNO_MASK;
        if (nextMessage == 0) {
            nextMessage = 1;
        }
        int word = SrtHeader.PP_SOLO | (kk << SrtHeader.KK_SHIFT) | message;
        SrtHeader.writeData(p, 0, seq, word, timestampUs, destSocket);
        lengths[slot] = SrtHeader.LENGTH + len;
        submittedNs[slot] = nowNs;
        lastSentNs[slot] = nowNs;
        sent++;
        out.sendData(p, lengths[slot]);
    }

    private void dropOldest(Output out) {
        int slot = oldest & mask;
        out.sendDropRequest(SrtHeader.messageWord(packets[slot], 0) & SrtHeader.MSGNO_MASK, oldest, oldest);
        dropped++;
        oldest = SeqNo.next(oldest);
    }

    /** An ACK: everything before {@code ackSeq} arrived. */
    public void onAck(int ackSeq) {
        int n = SeqNo.diff(ackSeq, oldest);
        if (n > 0 && SeqNo.diff(ackSeq, next) <= 0) {
            oldest = ackSeq;
        }
    }

    /**
     * A NAK asked for [first, last]: resend what is still held, except packets sent again less
     * than {@code minIntervalNs} ago (libsrt's reduced retransmission: a NAK that crossed the
     * retransmission must not double it).
     */
    public void retransmit(int first, int last, long nowNs, long minIntervalNs, Output out) {
        int from = SeqNo.diff(first, oldest) < 0 ? oldest : first;
        int to = SeqNo.diff(last, next) >= 0 ? SeqNo.prev(next) : last;
        int n = SeqNo.diff(to, from);
        if (n < 0) {
            return;
        }
        int seq = from;
        for (int i = 0; i <= n; i++) {
            int slot = seq & mask;
            if (nowNs - lastSentNs[slot] >= minIntervalNs) {
                byte[] p = packets[slot];
                p[4] |= (byte) (SrtHeader.REXMIT_FLAG >>> 24);
                lastSentNs[slot] = nowNs;
                retransmitted++;
                out.sendData(p, lengths[slot]);
            }
            seq = SeqNo.next(seq);
        }
    }

    /** Gives up packets submitted more than {@code maxAgeNs} ago; one DROPREQ for the range. */
    public void dropTooLate(long nowNs, long maxAgeNs, Output out) {
        int first = oldest;
        int count = 0;
        int firstMessage = 0;
        while (SeqNo.diff(next, oldest) > 0 && nowNs - submittedNs[oldest & mask] > maxAgeNs) {
            if (count == 0) {
                firstMessage = SrtHeader.messageWord(packets[oldest & mask], 0) & SrtHeader.MSGNO_MASK;
            }
            oldest = SeqNo.next(oldest);
            count++;
        }
        if (count > 0) {
            dropped += count;
            out.sendDropRequest(firstMessage, first, SeqNo.prev(oldest));
        }
    }

    /** When the oldest held packet becomes too old, or {@code Long.MAX_VALUE}. */
    public long nextDropNs(long maxAgeNs) {
        return inFlight() == 0 ? Long.MAX_VALUE : submittedNs[oldest & mask] + maxAgeNs + 1;
    }

    public int peerWindow() {
        return peerWindow;
    }
}
