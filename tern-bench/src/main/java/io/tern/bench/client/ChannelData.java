package io.tern.bench.client;

/**
 * ChannelData framing (RFC 8656 §12.4): 2-byte channel number (0x4000-0x4FFF), 2-byte length,
 * then the application data. Over TCP/TLS the frame is padded to a multiple of 4 bytes (§12.5);
 * the padding is not counted in the length field.
 */
public final class ChannelData {
    private ChannelData() {}

    public static final int HEADER_BYTES = 4;
    public static final int MIN_CHANNEL = 0x4000;
    public static final int MAX_CHANNEL = 0x4FFF;

    public static int frameBytes(int dataBytes, boolean stream) {
        int n = HEADER_BYTES + dataBytes;
        return stream ? Stun.padded(n) : n;
    }

    public static void writeHeader(byte[] dst, int offset, int channel, int dataBytes) {
        dst[offset] = (byte) (channel >>> 8);
        dst[offset + 1] = (byte) channel;
        dst[offset + 2] = (byte) (dataBytes >>> 8);
        dst[offset + 3] = (byte) dataBytes;
    }

    /**
     * Number of bytes a complete frame starting with these four header bytes occupies on a
     * stream: STUN messages are 20 + length, ChannelData is 4 + length padded to 4.
     * Returns -1 if the first byte starts neither.
     */
    public static int streamFrameBytes(int b0, int b1, int b2, int b3) {
        int length = (b2 & 0xFF) << 8 | (b3 & 0xFF);
        if (Stun.isStun(b0)) {
            return Stun.HEADER_BYTES + length;
        }
        if (Stun.isChannelData(b0)) {
            return Stun.padded(HEADER_BYTES + length);
        }
        return -1;
    }
}
