package io.tern.media.codec;

import io.tern.media.MediaFormatException;

/**
 * H.264 frames as length-prefixed NAL units (ISO 14496-15), and their conversion to the form of
 * every {@link io.tern.media.AccessUnit}: 4-byte lengths, no access unit delimiters.
 */
public final class NalUnits {
    public static final int TYPE_IDR = 5;
    public static final int TYPE_SEI = 6;
    public static final int TYPE_SPS = 7;
    public static final int TYPE_PPS = 8;
    public static final int TYPE_AUD = 9;

    private NalUnits() {}

    /**
     * Copies the frame at {@code src[offset, offset + length)}, whose NAL units are prefixed by
     * {@code lengthSize}-byte big-endian lengths (1, 2 or 4), into a new array with 4-byte lengths,
     * dropping access unit delimiters and empty NAL units. The result may be empty.
     *
     * @throws MediaFormatException when a length runs past the end of the frame
     */
    public static byte[] toAccessUnitForm(byte[] src, int offset, int length, int lengthSize)
            throws MediaFormatException {
        if (lengthSize != 1 && lengthSize != 2 && lengthSize != 4) {
            throw new IllegalArgumentException("NAL unit length size " + lengthSize);
        }
        if (offset < 0 || length < 0 || length > src.length - offset) {
            throw new MediaFormatException("frame range out of bounds");
        }
        int end = offset + length;
        // First pass: validate every length and size the output, so the copy needs no growth.
        long outBytes = 0;
        for (int pos = offset; pos < end; ) {
            long nalBytes = nalLength(src, pos, end, lengthSize);
            pos += lengthSize;
            if (nalBytes > 0 && (src[pos] & 0x1F) != TYPE_AUD) {
                outBytes += 4 + nalBytes;
            }
            pos += (int) nalBytes;
        }
        if (outBytes > Integer.MAX_VALUE - 8) {
            throw new MediaFormatException("frame of " + outBytes + " bytes");
        }
        byte[] out = new byte[(int) outBytes];
        int w = 0;
        for (int pos = offset; pos < end; ) {
            int nalBytes = (int) nalLength(src, pos, end, lengthSize);
            pos += lengthSize;
            if (nalBytes > 0 && (src[pos] & 0x1F) != TYPE_AUD) {
                out[w] = (byte) (nalBytes >>> 24);
                out[w + 1] = (byte) (nalBytes >>> 16);
                out[w + 2] = (byte) (nalBytes >>> 8);
                out[w + 3] = (byte) nalBytes;
                System.arraycopy(src, pos, out, w + 4, nalBytes);
                w += 4 + nalBytes;
            }
            pos += nalBytes;
        }
        return out;
    }

    /** Whether a frame in access unit form (4-byte lengths) holds an IDR slice. */
    public static boolean containsIdr(byte[] frame) {
        for (int pos = 0; pos + 4 < frame.length; ) {
            long nalBytes = ((frame[pos] & 0xFFL) << 24)
                    | ((frame[pos + 1] & 0xFF) << 16)
                    | ((frame[pos + 2] & 0xFF) << 8)
                    | (frame[pos + 3] & 0xFF);
            if (nalBytes > 0 && (frame[pos + 4] & 0x1F) == TYPE_IDR) {
                return true;
            }
            pos += 4 + (int) Math.min(nalBytes, frame.length);
        }
        return false;
    }

    private static long nalLength(byte[] src, int pos, int end, int lengthSize) throws MediaFormatException {
        if (end - pos < lengthSize) {
            throw new MediaFormatException("NAL unit length truncated at byte " + pos);
        }
        long value = 0;
        for (int i = 0; i < lengthSize; i++) {
            value = (value << 8) | (src[pos + i] & 0xFF);
        }
        if (value > end - pos - lengthSize) {
            throw new MediaFormatException(
                    "NAL unit of " + value + " bytes overruns the frame (" + (end - pos - lengthSize) + " left)");
        }
        return value;
    }
}
