package io.tern.media.codec;

import io.tern.media.MediaFormatException;

/**
 * Reads bits from a NAL unit's payload, skipping emulation-prevention bytes (the 0x03 after two
 * zero bytes, H.264 §7.4.1) as it goes, so callers see the raw byte sequence payload. Reading past
 * the end throws rather than returning zeros, so a truncated parameter set is reported, not parsed.
 */
final class RbspReader {
    private final byte[] data;
    private final int end;
    private int bytePos;
    private int bitPos; // 0..7 within data[bytePos], most significant first
    private int zeros; // consecutive zero bytes consumed, for emulation prevention

    RbspReader(byte[] data, int offset, int length) {
        this.data = data;
        this.bytePos = offset;
        this.end = offset + length;
    }

    int bit() throws MediaFormatException {
        if (bitPos == 0) {
            skipEmulationPrevention();
        }
        if (bytePos >= end) {
            throw new MediaFormatException("parameter set truncated");
        }
        int value = (data[bytePos] >> (7 - bitPos)) & 1;
        if (++bitPos == 8) {
            zeros = data[bytePos] == 0 ? zeros + 1 : 0;
            bitPos = 0;
            bytePos++;
        }
        return value;
    }

    private void skipEmulationPrevention() {
        if (zeros >= 2 && bytePos < end && data[bytePos] == 3) {
            bytePos++;
            zeros = 0;
        }
    }

    int bits(int count) throws MediaFormatException {
        int value = 0;
        for (int i = 0; i < count; i++) {
            value = (value << 1) | bit();
        }
        return value;
    }

    boolean flag() throws MediaFormatException {
        return bit() == 1;
    }

    void skip(int count) throws MediaFormatException {
        for (int i = 0; i < count; i++) {
            bit();
        }
    }

    /** ue(v): unsigned Exp-Golomb, bounded to 31 leading zeros (values below 2^32 - 1). */
    long ue() throws MediaFormatException {
        int leadingZeros = 0;
        while (bit() == 0) {
            if (++leadingZeros > 31) {
                throw new MediaFormatException("Exp-Golomb code too long");
            }
        }
        return ((1L << leadingZeros) - 1) + (leadingZeros == 0 ? 0 : bits(leadingZeros) & 0xFFFFFFFFL);
    }

    /** ue(v) that must lie in [0, max]. */
    int ue(String field, int max) throws MediaFormatException {
        long value = ue();
        if (value > max) {
            throw new MediaFormatException(field + " " + value + " out of range 0.." + max);
        }
        return (int) value;
    }

    /** se(v): signed Exp-Golomb. */
    long se() throws MediaFormatException {
        long k = ue();
        return (k & 1) == 1 ? (k + 1) / 2 : -(k / 2);
    }
}
