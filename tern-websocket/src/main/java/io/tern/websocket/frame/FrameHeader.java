package io.tern.websocket.frame;

/**
 * Flyweight over an RFC 6455 §5.2 frame header held in a byte array. Decoding is incremental:
 * {@link #headerBytes()} says how many header bytes are needed once the first two are known, so
 * the caller can return early when fewer are available.
 */
public final class FrameHeader {
    public static final int MAX_HEADER_BYTES = 14;
    public static final int MAX_CONTROL_PAYLOAD_BYTES = 125;

    private static final int FIN_BIT = 0x80;
    private static final int RSV_MASK = 0x70;
    public static final int RSV1 = 0x40;
    private static final int OPCODE_MASK = 0x0F;
    private static final int MASK_BIT = 0x80;
    private static final int LENGTH_MASK = 0x7F;
    private static final int LENGTH_16 = 126;
    private static final int LENGTH_64 = 127;

    private byte[] buffer;
    private int offset;

    public FrameHeader wrap(byte[] buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** Header length implied by the first two bytes (which must be present). */
    public int headerBytes() {
        int lengthCode = buffer[offset + 1] & LENGTH_MASK;
        int extendedBytes = lengthCode == LENGTH_16 ? 2 : lengthCode == LENGTH_64 ? 8 : 0;
        return 2 + extendedBytes + (masked() ? 4 : 0);
    }

    public boolean fin() {
        return (buffer[offset] & FIN_BIT) != 0;
    }

    /** RSV1..RSV3 bits, still in their position in the first byte (0x70 mask). */
    public int rsv() {
        return buffer[offset] & RSV_MASK;
    }

    public int opcode() {
        return buffer[offset] & OPCODE_MASK;
    }

    public boolean masked() {
        return (buffer[offset + 1] & MASK_BIT) != 0;
    }

    /** Payload length; negative when a 64-bit length has its most significant bit set (§5.2 forbids it). */
    public long payloadBytes() {
        int lengthCode = buffer[offset + 1] & LENGTH_MASK;
        if (lengthCode < LENGTH_16) {
            return lengthCode;
        }
        if (lengthCode == LENGTH_16) {
            return ((buffer[offset + 2] & 0xFF) << 8) | (buffer[offset + 3] & 0xFF);
        }
        long length = 0;
        for (int i = 0; i < 8; i++) {
            length = (length << 8) | (buffer[offset + 2 + i] & 0xFF);
        }
        return length;
    }

    /**
     * RFC 6455 §5.2: "the minimal number of bytes MUST be used to encode the length". False when
     * the 16-bit form carries a length below 126 or the 64-bit form one below 65536.
     */
    public boolean hasMinimalLength() {
        int lengthCode = buffer[offset + 1] & LENGTH_MASK;
        long length = payloadBytes();
        return lengthCode < LENGTH_16
                || (lengthCode == LENGTH_16 && length >= LENGTH_16)
                || (lengthCode == LENGTH_64 && (length > 0xFFFF || length < 0));
    }

    public int maskKey() {
        int keyOffset = offset + headerBytes() - 4;
        return ((buffer[keyOffset] & 0xFF) << 24)
                | ((buffer[keyOffset + 1] & 0xFF) << 16)
                | ((buffer[keyOffset + 2] & 0xFF) << 8)
                | (buffer[keyOffset + 3] & 0xFF);
    }

    /**
     * Encodes a header into {@code dst} at {@code dstOffset} using the shortest length form.
     *
     * @param rsv RSV bits in first-byte position (e.g. {@link #RSV1})
     * @return bytes written (2..14)
     */
    public static int encode(
            byte[] dst,
            int dstOffset,
            boolean fin,
            int rsv,
            int opcode,
            long payloadBytes,
            boolean masked,
            int maskKey) {
        int i = dstOffset;
        dst[i++] = (byte) ((fin ? FIN_BIT : 0) | rsv | opcode);
        int maskBit = masked ? MASK_BIT : 0;
        if (payloadBytes < LENGTH_16) {
            dst[i++] = (byte) (maskBit | (int) payloadBytes);
        } else if (payloadBytes <= 0xFFFF) {
            dst[i++] = (byte) (maskBit | LENGTH_16);
            dst[i++] = (byte) (payloadBytes >>> 8);
            dst[i++] = (byte) payloadBytes;
        } else {
            dst[i++] = (byte) (maskBit | LENGTH_64);
            for (int shift = 56; shift >= 0; shift -= 8) {
                dst[i++] = (byte) (payloadBytes >>> shift);
            }
        }
        if (masked) {
            dst[i++] = (byte) (maskKey >>> 24);
            dst[i++] = (byte) (maskKey >>> 16);
            dst[i++] = (byte) (maskKey >>> 8);
            dst[i++] = (byte) maskKey;
        }
        return i - dstOffset;
    }
}
