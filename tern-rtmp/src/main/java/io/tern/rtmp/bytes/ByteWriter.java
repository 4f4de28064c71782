package io.tern.rtmp.bytes;

import java.util.Arrays;

/**
 * A growable big-endian byte array: the engine's output queue and the scratch space its encoders
 * write into. It grows by doubling and is reused; {@link #clear()} keeps the capacity.
 */
public final class ByteWriter {
    private byte[] bytes;
    private int length;

    public ByteWriter(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    public byte[] array() {
        return bytes;
    }

    public int length() {
        return length;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    public void clear() {
        length = 0;
    }

    /** Drops the first {@code n} bytes, moving the rest to the front. */
    public void discardFront(int n) {
        if (n >= length) {
            length = 0;
            return;
        }
        System.arraycopy(bytes, n, bytes, 0, length - n);
        length -= n;
    }

    public void ensureSpace(int n) {
        int needed = length + n;
        if (needed > bytes.length) {
            if (needed < 0) {
                throw new IllegalStateException("byte writer over 2 GiB");
            }
            bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
        }
    }

    public ByteWriter u8(int value) {
        ensureSpace(1);
        bytes[length++] = (byte) value;
        return this;
    }

    public ByteWriter u16(int value) {
        ensureSpace(2);
        bytes[length] = (byte) (value >>> 8);
        bytes[length + 1] = (byte) value;
        length += 2;
        return this;
    }

    public ByteWriter u24(int value) {
        ensureSpace(3);
        bytes[length] = (byte) (value >>> 16);
        bytes[length + 1] = (byte) (value >>> 8);
        bytes[length + 2] = (byte) value;
        length += 3;
        return this;
    }

    public ByteWriter u32(long value) {
        ensureSpace(4);
        BigEndian.putU32(bytes, length, value);
        length += 4;
        return this;
    }

    /** A 32-bit little-endian integer: the message stream id of a type 0 chunk header. */
    public ByteWriter u32le(int value) {
        ensureSpace(4);
        bytes[length] = (byte) value;
        bytes[length + 1] = (byte) (value >>> 8);
        bytes[length + 2] = (byte) (value >>> 16);
        bytes[length + 3] = (byte) (value >>> 24);
        length += 4;
        return this;
    }

    public ByteWriter f64(double value) {
        long bits = Double.doubleToRawLongBits(value);
        u32(bits >>> 32);
        return u32(bits);
    }

    public ByteWriter bytes(byte[] src, int offset, int n) {
        ensureSpace(n);
        System.arraycopy(src, offset, bytes, length, n);
        length += n;
        return this;
    }

    public ByteWriter bytes(byte[] src) {
        return bytes(src, 0, src.length);
    }

    /** Reserves {@code n} bytes to be filled in later with the put methods; returns their offset. */
    public int reserve(int n) {
        ensureSpace(n);
        int at = length;
        length += n;
        return at;
    }

    /** Truncates to {@code newLength}, which must not exceed the current length. */
    public void truncate(int newLength) {
        if (newLength < 0 || newLength > length) {
            throw new IndexOutOfBoundsException(newLength);
        }
        length = newLength;
    }
}
