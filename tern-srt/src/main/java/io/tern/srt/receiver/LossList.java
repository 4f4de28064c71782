package io.tern.srt.receiver;

import io.tern.srt.packet.LossReport;
import io.tern.srt.packet.SeqNo;

/**
 * The receiver's missing sequence numbers as sorted, disjoint ranges in two fixed arrays. Losses are
 * found at the top (a jump past the largest number received) so they append; retransmissions and
 * drops remove from anywhere. The capacity in ranges bounds memory whatever the peer sends.
 */
public final class LossList {
    private final int[] first;
    private final int[] last;
    private int size;
    private long packets;

    public LossList(int maxRanges) {
        first = new int[maxRanges];
        last = new int[maxRanges];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int ranges() {
        return size;
    }

    /** Missing packets in all ranges. */
    public long packets() {
        return packets;
    }

    public int firstSeq() {
        return first[0];
    }

    /** Appends [f, l] after the last range; false (nothing added) when the list is full. */
    public boolean append(int f, int l) {
        if (size > 0 && SeqNo.next(last[size - 1]) == f) {
            last[size - 1] = l;
        } else {
            if (size == first.length) {
                return false;
            }
            first[size] = f;
            last[size] = l;
            size++;
        }
        packets += SeqNo.diff(l, f) + 1;
        return true;
    }

    public boolean contains(int seq) {
        return indexOf(seq) >= 0;
    }

    private int indexOf(int seq) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (SeqNo.diff(seq, first[mid]) < 0) {
                hi = mid - 1;
            } else if (SeqNo.diff(seq, last[mid]) > 0) {
                lo = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** Removes one number (a retransmission arrived); false when it was not missing. */
    public boolean remove(int seq) {
        int i = indexOf(seq);
        if (i < 0) {
            return false;
        }
        packets--;
        if (first[i] == last[i]) {
            System.arraycopy(first, i + 1, first, i, size - i - 1);
            System.arraycopy(last, i + 1, last, i, size - i - 1);
            size--;
        } else if (first[i] == seq) {
            first[i] = SeqNo.next(seq);
        } else if (last[i] == seq) {
            last[i] = SeqNo.prev(seq);
        } else if (size < first.length) {
            System.arraycopy(first, i + 1, first, i + 2, size - i - 1);
            System.arraycopy(last, i + 1, last, i + 2, size - i - 1);
            first[i + 1] = SeqNo.next(seq);
            last[i + 1] = last[i];
            last[i] = SeqNo.prev(seq);
            size++;
        } else {
            // No room to split: forget the lower part rather than grow (it will be dropped late).
            packets -= SeqNo.diff(seq, first[i]);
            first[i] = SeqNo.next(seq);
        }
        return true;
    }

    /** Forgets every number before {@code seq} (delivered or dropped); returns how many. */
    public long removeBefore(int seq) {
        long removed = 0;
        int k = 0;
        while (k < size && SeqNo.diff(last[k], seq) < 0) {
            removed += SeqNo.diff(last[k], first[k]) + 1;
            k++;
        }
        if (k > 0) {
            System.arraycopy(first, k, first, 0, size - k);
            System.arraycopy(last, k, last, 0, size - k);
            size -= k;
        }
        if (size > 0 && SeqNo.diff(first[0], seq) < 0) {
            removed += SeqNo.diff(seq, first[0]);
            first[0] = seq;
        }
        packets -= removed;
        return removed;
    }

    /** Writes as many ranges as fit in {@code maxBytes} as a NAK body; returns the bytes written. */
    public int encode(byte[] b, int off, int maxBytes) {
        int i = off;
        for (int k = 0; k < size; k++) {
            int need = first[k] == last[k] ? 4 : 8;
            if (i - off + need > maxBytes) {
                break;
            }
            i = LossReport.writeRange(b, i, first[k], last[k]);
        }
        return i - off;
    }

    public void clear() {
        size = 0;
        packets = 0;
    }
}
