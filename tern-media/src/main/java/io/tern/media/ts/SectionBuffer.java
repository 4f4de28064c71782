package io.tern.media.ts;

/**
 * Reassembles one PSI section (PAT or PMT) from TS payloads, checks its CRC-32 and bounds it to
 * the 1024 bytes ISO 13818-1 allows.
 */
final class SectionBuffer {
    static final int INCOMPLETE = -1;
    static final int MALFORMED = -2;
    private static final int MAX_SECTION = 1024;
    private static final int[] CRC_TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i << 24;
            for (int k = 0; k < 8; k++) {
                c = (c & 0x8000_0000) != 0 ? (c << 1) ^ 0x04C1_1DB7 : c << 1;
            }
            CRC_TABLE[i] = c;
        }
    }

    final byte[] data = new byte[MAX_SECTION + 188];
    private int length;
    private boolean active;

    void reset() {
        active = false;
        length = 0;
    }

    /** Adds a payload; returns the complete section's length, or INCOMPLETE / MALFORMED. */
    int add(byte[] b, int off, int len, boolean pusi) {
        if (pusi) {
            int pointer = b[off] & 0xFF;
            if (pointer + 1 > len) {
                reset();
                return MALFORMED;
            }
            off += 1 + pointer;
            len -= 1 + pointer;
            active = true;
            length = 0;
        } else if (!active) {
            return INCOMPLETE;
        }
        int n = Math.min(len, data.length - length);
        System.arraycopy(b, off, data, length, n);
        length += n;
        if (length < 3) {
            return INCOMPLETE;
        }
        int sectionLength = ((data[1] & 0x0F) << 8) | (data[2] & 0xFF);
        if (sectionLength > MAX_SECTION - 3 || sectionLength < 9) {
            reset();
            return MALFORMED;
        }
        int total = 3 + sectionLength;
        if (length < total) {
            return INCOMPLETE;
        }
        active = false;
        return crc(data, total) == 0 ? total : MALFORMED;
    }

    static int crc(byte[] b, int len) {
        int c = 0xFFFF_FFFF;
        for (int i = 0; i < len; i++) {
            c = (c << 8) ^ CRC_TABLE[((c >>> 24) ^ b[i]) & 0xFF];
        }
        return c;
    }
}
