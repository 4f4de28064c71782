package io.tern.hls.mp4;

/**
 * Big-endian writes into an array sized beforehand. ISO BMFF boxes are written with their sizes
 * computed first, so the writer never grows: running past the end is a sizing bug and throws.
 */
final class ByteWriter {
    private final byte[] buf;
    private int pos;

    ByteWriter(int sizeBytes) {
        this.buf = new byte[sizeBytes];
    }

    int position() {
        return pos;
    }

    ByteWriter u8(int v) {
        buf[pos++] = (byte) v;
        return this;
    }

    ByteWriter u16(int v) {
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    ByteWriter u24(int v) {
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    ByteWriter u32(long v) {
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    ByteWriter u64(long v) {
        u32(v >>> 32);
        return u32(v & 0xFFFF_FFFFL);
    }

    /** A four-character code such as {@code moof}. */
    ByteWriter fourCc(String code) {
        for (int i = 0; i < 4; i++) {
            buf[pos++] = (byte) code.charAt(i);
        }
        return this;
    }

    ByteWriter zeros(int n) {
        pos += n; // the array starts zeroed
        return this;
    }

    ByteWriter bytes(byte[] src) {
        System.arraycopy(src, 0, buf, pos, src.length);
        pos += src.length;
        return this;
    }

    /** A box header: 32-bit size and type. */
    ByteWriter box(int sizeBytes, String type) {
        return u32(sizeBytes).fourCc(type);
    }

    /** A full box header: size, type, version and 24-bit flags. */
    ByteWriter fullBox(int sizeBytes, String type, int version, int flags) {
        return box(sizeBytes, type).u8(version).u24(flags);
    }

    /** The finished array; throws if the computed size and the bytes written disagree. */
    byte[] finish() {
        if (pos != buf.length) {
            throw new IllegalStateException("wrote " + pos + " of " + buf.length + " bytes");
        }
        return buf;
    }
}
