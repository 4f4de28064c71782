package io.tern.srt.packet;

/**
 * SRT packet sequence numbers: 31 bits that wrap (draft-sharabayko-srt §3.1). Every comparison goes
 * through {@link #diff} so the wrap from 2^31-1 to 0 is never seen as a jump backwards.
 */
public final class SeqNo {
    public static final int MAX = 0x7FFF_FFFF;
    private static final int HALF = 0x4000_0000;

    private SeqNo() {}

    /** {@code a - b} on the 31-bit circle, in [-2^30, 2^30). */
    public static int diff(int a, int b) {
        int d = (a - b) & MAX;
        return d >= HALF ? d - (MAX + 1) : d;
    }

    public static int add(int seq, int n) {
        return (seq + n) & MAX;
    }

    public static int next(int seq) {
        return (seq + 1) & MAX;
    }

    public static int prev(int seq) {
        return (seq - 1) & MAX;
    }
}
