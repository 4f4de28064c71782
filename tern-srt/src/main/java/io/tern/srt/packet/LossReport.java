package io.tern.srt.packet;

/**
 * The loss list encoding of NAK packets (draft-sharabayko-srt §3.2.5): a single lost packet is its
 * sequence number; a range is its first number with the top bit set, followed by its last number.
 */
public final class LossReport {
    private static final int RANGE_FLAG = 0x8000_0000;

    private LossReport() {}

    /** Writes one range and returns the new write offset; bytes needed: 4 or 8. */
    public static int writeRange(byte[] b, int off, int first, int last) {
        if (first == last) {
            Bytes.put32(b, off, first);
            return off + 4;
        }
        Bytes.put32(b, off, first | RANGE_FLAG);
        Bytes.put32(b, off + 4, last);
        return off + 8;
    }

    /** Receives the decoded ranges of a NAK body. */
    @FunctionalInterface
    public interface RangeConsumer {
        void range(int first, int last);
    }

    /** Decodes a NAK body; a malformed tail (a range flag without its end) is ignored. */
    public static void read(byte[] b, int off, int len, RangeConsumer consumer) {
        int end = off + (len & ~3);
        int i = off;
        while (i + 4 <= end) {
            int v = Bytes.i32(b, i);
            i += 4;
            if ((v & RANGE_FLAG) != 0) {
                if (i + 4 > end) {
                    return;
                }
                int last = Bytes.i32(b, i) & SeqNo.MAX;
                i += 4;
                int first = v & SeqNo.MAX;
                if (SeqNo.diff(last, first) >= 0) {
                    consumer.range(first, last);
                }
            } else {
                consumer.range(v, v);
            }
        }
    }
}
