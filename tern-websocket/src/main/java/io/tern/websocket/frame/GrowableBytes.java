package io.tern.websocket.frame;

import java.util.Arrays;

/** A byte array that grows on demand up to a caller-given bound and can be shrunk back when idle. */
public final class GrowableBytes {
    private static final byte[] EMPTY = new byte[0];

    private byte[] array = EMPTY;
    private int length;

    public byte[] array() {
        return array;
    }

    public int length() {
        return length;
    }

    public void length(int length) {
        this.length = length;
    }

    public int capacity() {
        return array.length;
    }

    /**
     * Makes room for {@code extraBytes} more bytes after {@link #length()}.
     *
     * @return false, without growing, when that would exceed {@code maxBytes}
     */
    public boolean ensureWritable(int extraBytes, int maxBytes) {
        long required = (long) length + extraBytes;
        if (required > maxBytes) {
            return false;
        }
        if (required > array.length) {
            long doubled = Math.max(256, (long) array.length << 1);
            array = Arrays.copyOf(array, (int) Math.min(Math.max(required, doubled), maxBytes));
        }
        return true;
    }

    public void append(byte[] src, int offset, int count) {
        System.arraycopy(src, offset, array, length, count);
        length += count;
    }

    /** Empties the buffer and drops the array if it grew past {@code retainBytes}, so idle connections stay small. */
    public void clear(int retainBytes) {
        length = 0;
        if (array.length > retainBytes) {
            array = EMPTY;
        }
    }
}
