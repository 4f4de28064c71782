package io.tern.bench.load;

import java.util.zip.CRC32;

/**
 * The application data carried in each ChannelData frame. Layout (big-endian):
 * <pre>
 *  0  magic      "TRNB"
 *  4  worker     u16
 *  6  slot       u16
 *  8  sequence   u64
 * 16  client     u32
 * 20  length     u32  (whole payload, bytes)
 * 24  checksum   u32  CRC-32 of bytes [0,24) and [28,length)
 * 28  filler     derived from the sequence number
 * </pre>
 * The checksum covers the sequence number, so a corrupted sequence is detected as corruption
 * rather than as reordering.
 */
public final class Payload {
    public static final int MAGIC = 0x54524E42; // "TRNB"
    public static final int HEADER_BYTES = 28;
    public static final int WORKER_OFFSET = 4;
    public static final int SLOT_OFFSET = 6;
    public static final int SEQUENCE_OFFSET = 8;
    public static final int CLIENT_OFFSET = 16;
    public static final int LENGTH_OFFSET = 20;
    public static final int CHECKSUM_OFFSET = 24;

    private final CRC32 crc = new CRC32();

    /** Writes a payload of {@code length} bytes into {@code dst[offset...]}. */
    public void write(byte[] dst, int offset, int length, int worker, int slot, long sequence, int client) {
        if (length < HEADER_BYTES) {
            throw new IllegalArgumentException("payload must be at least " + HEADER_BYTES + " bytes");
        }
        putInt(dst, offset, MAGIC);
        putShort(dst, offset + WORKER_OFFSET, worker);
        putShort(dst, offset + SLOT_OFFSET, slot);
        putLong(dst, offset + SEQUENCE_OFFSET, sequence);
        putInt(dst, offset + CLIENT_OFFSET, client);
        putInt(dst, offset + LENGTH_OFFSET, length);
        byte fill = (byte) (sequence * 31);
        for (int i = HEADER_BYTES; i < length; i++) {
            dst[offset + i] = (byte) (fill + i);
        }
        putInt(dst, offset + CHECKSUM_OFFSET, checksum(dst, offset, length));
    }

    /** True if magic, length and checksum are intact; the fields may then be trusted. */
    public boolean verify(byte[] src, int offset, int length) {
        return length >= HEADER_BYTES
                && getInt(src, offset) == MAGIC
                && getInt(src, offset + LENGTH_OFFSET) == length
                && getInt(src, offset + CHECKSUM_OFFSET) == checksum(src, offset, length);
    }

    private int checksum(byte[] b, int offset, int length) {
        crc.reset();
        crc.update(b, offset, CHECKSUM_OFFSET);
        crc.update(b, offset + HEADER_BYTES, length - HEADER_BYTES);
        return (int) crc.getValue();
    }

    public static int worker(byte[] b, int offset) {
        return getShort(b, offset + WORKER_OFFSET);
    }

    public static int slot(byte[] b, int offset) {
        return getShort(b, offset + SLOT_OFFSET);
    }

    public static long sequence(byte[] b, int offset) {
        return getLong(b, offset + SEQUENCE_OFFSET);
    }

    public static int client(byte[] b, int offset) {
        return getInt(b, offset + CLIENT_OFFSET);
    }

    static void putShort(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 8);
        b[o + 1] = (byte) v;
    }

    static void putInt(byte[] b, int o, int v) {
        b[o] = (byte) (v >>> 24);
        b[o + 1] = (byte) (v >>> 16);
        b[o + 2] = (byte) (v >>> 8);
        b[o + 3] = (byte) v;
    }

    static void putLong(byte[] b, int o, long v) {
        putInt(b, o, (int) (v >>> 32));
        putInt(b, o + 4, (int) v);
    }

    static int getShort(byte[] b, int o) {
        return (b[o] & 0xFF) << 8 | (b[o + 1] & 0xFF);
    }

    static int getInt(byte[] b, int o) {
        return (b[o] & 0xFF) << 24 | (b[o + 1] & 0xFF) << 16 | (b[o + 2] & 0xFF) << 8 | (b[o + 3] & 0xFF);
    }

    static long getLong(byte[] b, int o) {
        return (long) getInt(b, o) << 32 | (getInt(b, o + 4) & 0xFFFFFFFFL);
    }
}
