package io.tern.srt.packet;

/**
 * The 16-byte header shared by data and control packets (draft-sharabayko-srt §3), as static
 * accessors over a datagram so the receive path wraps nothing and allocates nothing.
 *
 * <pre>
 * data:    |0| sequence number (31)        | PP(2) O(1) KK(2) R(1) message number (26) | timestamp | dest socket id
 * control: |1| control type (15) | subtype  | type-specific information                 | timestamp | dest socket id
 * </pre>
 */
public final class SrtHeader {
    public static final int LENGTH = 16;
    public static final int TIMESTAMP_OFFSET = 8;
    public static final int DEST_SOCKET_OFFSET = 12;

    /** PP = 11: the packet is a whole message (live mode sends one TS chunk per message). */
    public static final int PP_SOLO = 0xC000_0000;

    public static final int ORDER_FLAG = 0x2000_0000;
    public static final int KK_SHIFT = 27;
    public static final int KK_MASK = 0x1800_0000;
    public static final int REXMIT_FLAG = 0x0400_0000;
    public static final int MSGNO_MASK = 0x03FF_FFFF;

    /** Key flags in the KK field of a data packet. */
    public static final int KK_NONE = 0;

    public static final int KK_EVEN = 1;
    public static final int KK_ODD = 2;

    private SrtHeader() {}

    public static boolean isControl(byte[] b, int off) {
        return (b[off] & 0x80) != 0;
    }

    public static int sequence(byte[] b, int off) {
        return Bytes.i32(b, off) & SeqNo.MAX;
    }

    public static int messageWord(byte[] b, int off) {
        return Bytes.i32(b, off + 4);
    }

    public static int keyFlags(byte[] b, int off) {
        return (messageWord(b, off) & KK_MASK) >>> KK_SHIFT;
    }

    public static int controlType(byte[] b, int off) {
        return Bytes.u16(b, off) & 0x7FFF;
    }

    public static int subtype(byte[] b, int off) {
        return Bytes.u16(b, off + 2);
    }

    public static int typeInfo(byte[] b, int off) {
        return Bytes.i32(b, off + 4);
    }

    public static int timestamp(byte[] b, int off) {
        return Bytes.i32(b, off + TIMESTAMP_OFFSET);
    }

    public static int destSocket(byte[] b, int off) {
        return Bytes.i32(b, off + DEST_SOCKET_OFFSET);
    }

    public static void writeData(byte[] b, int off, int seq, int messageWord, int timestamp, int destSocket) {
        Bytes.put32(b, off, seq & SeqNo.MAX);
        Bytes.put32(b, off + 4, messageWord);
        Bytes.put32(b, off + 8, timestamp);
        Bytes.put32(b, off + 12, destSocket);
    }

    public static void writeControl(
            byte[] b, int off, int type, int subtype, int typeInfo, int timestamp, int destSocket) {
        Bytes.put16(b, off, 0x8000 | type);
        Bytes.put16(b, off + 2, subtype);
        Bytes.put32(b, off + 4, typeInfo);
        Bytes.put32(b, off + 8, timestamp);
        Bytes.put32(b, off + 12, destSocket);
    }
}
