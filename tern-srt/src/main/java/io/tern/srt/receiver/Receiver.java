package io.tern.srt.receiver;

import io.tern.srt.crypto.ReceiveKeys;
import io.tern.srt.packet.SeqNo;
import io.tern.srt.packet.SrtHeader;

/**
 * The receiving half of a connection: a ring of packet slots indexed by sequence number, the loss
 * list, and TSBPD. Packets are delivered in order at their play time; a gap whose successor is due
 * is skipped and its packets counted as dropped too late (libsrt's TLPKTDROP).
 *
 * <p>Slots hold pooled arrays: delivering a packet swaps its array with an empty one from the
 * delivery queue, so the payload is never copied after it was received.
 */
public final class Receiver {
    /** Where the receiver reports what it found; implemented by the connection. */
    public interface Events {
        /** A gap appeared: [first, last] are missing (send an immediate NAK). */
        void lost(int first, int last);

        /** The slot's payload is due; return an empty array of the same size to put in its place. */
        byte[] deliver(byte[] payload, int length);
    }

    public static final int MAX_PAYLOAD = 1456;

    private final int capacity;
    private final int mask;
    private final byte[][] slots;
    private final int[] lengths;
    private final long[] timestampsUs;
    private final boolean[] present;
    private final LossList losses;
    private final Tsbpd tsbpd;
    private final ReceiveKeys keys;

    /** The next sequence number to deliver. */
    private int head;
    /** The largest sequence number received (head - 1 when none yet). */
    private int largest;

    private int occupied;

    public long received;
    public long bytes;
    public long lost;
    public long retransmitted;
    public long droppedTooLate;
    /** Gaps still open when the peer shut down: handed over without them. */
    public long droppedAtClose;

    public long undecryptable;
    public long duplicate;
    public long beyondBuffer;

    public Receiver(int initialSeq, int capacity, Tsbpd tsbpd, ReceiveKeys keys) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is not a power of two");
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.slots = new byte[capacity][];
        this.lengths = new int[capacity];
        this.timestampsUs = new long[capacity];
        this.present = new boolean[capacity];
        this.losses = new LossList(Math.max(16, capacity / 2));
        this.tsbpd = tsbpd;
        this.keys = keys;
        this.head = initialSeq;
        this.largest = SeqNo.prev(initialSeq);
    }

    public int capacity() {
        return capacity;
    }

    public LossList losses() {
        return losses;
    }

    public Tsbpd tsbpd() {
        return tsbpd;
    }

    /** Free slots, as the ACK's "available buffer size" reports them. */
    public int available() {
        return capacity - occupied;
    }

    /** The ACK number: every packet before it arrived or was given up. */
    public int ackSeq() {
        return losses.isEmpty() ? SeqNo.next(largest) : losses.firstSeq();
    }

    /** One data packet (header at {@code off}); decrypts into the slot it is stored in. */
    public void onData(byte[] b, int off, int len, Events events) {
        int payloadLen = len - SrtHeader.LENGTH;
        if (payloadLen <= 0 || payloadLen > MAX_PAYLOAD) {
            return;
        }
        int seq = SrtHeader.sequence(b, off);
        int word = SrtHeader.messageWord(b, off);
        received++;
        bytes += payloadLen;
        if ((word & SrtHeader.REXMIT_FLAG) != 0) {
            retransmitted++;
        }
        int offset = SeqNo.diff(seq, head);
        if (offset < 0) {
            duplicate++;
            return;
        }
        if (offset >= capacity) {
            beyondBuffer++;
            return;
        }
        int ahead = SeqNo.diff(seq, largest);
        if (ahead > 0) {
            if (ahead > 1) {
                int first = SeqNo.next(largest);
                int last = SeqNo.prev(seq);
                if (losses.append(first, last)) {
                    lost += ahead - 1;
                    events.lost(first, last);
                }
            }
            largest = seq;
        } else if (!losses.remove(seq)) {
            duplicate++;
            return;
        }
        int slot = seq & mask;
        if (present[slot]) {
            duplicate++;
            return;
        }
        byte[] dst = slots[slot];
        if (dst == null) {
            dst = slots[slot] = new byte[MAX_PAYLOAD];
        }
        System.arraycopy(b, off + SrtHeader.LENGTH, dst, 0, payloadLen);
        int kk = (word & SrtHeader.KK_MASK) >>> SrtHeader.KK_SHIFT;
        if (kk != SrtHeader.KK_NONE) {
            if (keys == null || !keys.decrypt(kk, seq, dst, 0, payloadLen)) {
                // Kept as received for ARQ, never delivered: it would be noise to the demuxer.
                undecryptable++;
                payloadLen = -1;
            }
        }
        lengths[slot] = payloadLen;
        timestampsUs[slot] = tsbpd.unwrap(SrtHeader.timestamp(b, off));
        present[slot] = true;
        occupied++;
    }

    /** Delivers every packet whose play time has come, dropping gaps that are too late. */
    public void deliverDue(long nowNs, Events events) {
        while (SeqNo.diff(largest, head) >= 0) {
            int slot = head & mask;
            if (present[slot]) {
                if (tsbpd.playTimeNs(timestampsUs[slot]) > nowNs) {
                    return;
                }
                release(slot, events);
                head = SeqNo.next(head);
                continue;
            }
            int next = firstPresentAfterHead();
            if (next < 0 || tsbpd.playTimeNs(timestampsUs[next & mask]) > nowNs) {
                return;
            }
            droppedTooLate += SeqNo.diff(next, head);
            head = next;
            losses.removeBefore(head);
        }
    }

    private void release(int slot, Events events) {
        present[slot] = false;
        occupied--;
        int len = lengths[slot];
        if (len > 0) {
            slots[slot] = events.deliver(slots[slot], len);
        }
    }

    private int firstPresentAfterHead() {
        int n = SeqNo.diff(largest, head);
        int seq = head;
        for (int i = 0; i <= n; i++) {
            if (present[seq & mask]) {
                return seq;
            }
            seq = SeqNo.next(seq);
        }
        return -1;
    }

    /**
     * The peer shut down: hand over every packet still held, in order, skipping the gaps (nothing
     * more will be retransmitted), as a reader of libsrt gets the rest of a closed socket's buffer.
     */
    public void deliverAll(Events events) {
        while (SeqNo.diff(largest, head) >= 0) {
            int slot = head & mask;
            if (present[slot]) {
                release(slot, events);
            } else {
                droppedAtClose++;
            }
            head = SeqNo.next(head);
        }
        losses.clear();
    }

    /** When {@link #deliverDue} next has work, or {@code Long.MAX_VALUE}. */
    public long nextPlayNs() {
        if (SeqNo.diff(largest, head) < 0) {
            return Long.MAX_VALUE;
        }
        int slot = head & mask;
        if (present[slot]) {
            return tsbpd.playTimeNs(timestampsUs[slot]);
        }
        int next = firstPresentAfterHead();
        return next < 0 ? Long.MAX_VALUE : tsbpd.playTimeNs(timestampsUs[next & mask]);
    }

    /**
     * The sender gave up on [first, last] (DROPREQ): stop asking for them and skip them once they
     * are at the head.
     */
    public void onDropRequest(int first, int last) {
        int seq = first;
        int n = SeqNo.diff(last, first);
        if (n < 0 || n >= capacity) {
            return;
        }
        for (int i = 0; i <= n; i++) {
            if (SeqNo.diff(seq, head) >= 0 && SeqNo.diff(seq, largest) <= 0) {
                losses.remove(seq);
            }
            seq = SeqNo.next(seq);
        }
        if (SeqNo.diff(last, largest) > 0 && SeqNo.diff(last, head) < capacity) {
            largest = last;
        }
        while (SeqNo.diff(largest, head) >= 0 && !present[head & mask] && !losses.contains(head)) {
            if (SeqNo.diff(head, last) > 0) {
                break;
            }
            droppedTooLate++;
            head = SeqNo.next(head);
        }
    }
}
