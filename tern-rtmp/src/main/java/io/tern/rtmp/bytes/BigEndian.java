package io.tern.rtmp.bytes;

/** Big-endian (network order) reads and writes on byte arrays, as RTMP, AMF0 and FLV use. */
public final class BigEndian {
    private BigEndian() {}

    public static int u16(byte[] src, int at) {
        return ((src[at] & 0xFF) << 8) | (src[at + 1] & 0xFF);
    }

    public static int u24(byte[] src, int at) {
        return ((src[at] & 0xFF) << 16) | ((src[at + 1] & 0xFF) << 8) | (src[at + 2] & 0xFF);
    }

    /** A signed 24-bit integer: FLV's composition time offset. */
    public static int s24(byte[] src, int at) {
        return (u24(src, at) << 8) >> 8;
    }

    public static long u32(byte[] src, int at) {
        return ((src[at] & 0xFFL) << 24)
                | ((src[at + 1] & 0xFF) << 16)
                | ((src[at + 2] & 0xFF) << 8)
                | (src[at + 3] & 0xFF);
    }

    public static void putU24(byte[] dst, int at, int value) {
        dst[at] = (byte) (value >>> 16);
        dst[at + 1] = (byte) (value >>> 8);
        dst[at + 2] = (byte) value;
    }

    public static void putU32(byte[] dst, int at, long value) {
        dst[at] = (byte) (value >>> 24);
        dst[at + 1] = (byte) (value >>> 16);
        dst[at + 2] = (byte) (value >>> 8);
        dst[at + 3] = (byte) value;
    }
}
