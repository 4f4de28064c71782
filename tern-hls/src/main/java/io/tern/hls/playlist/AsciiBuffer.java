package io.tern.hls.playlist;

import java.util.Arrays;

/**
 * Builds a playlist as ASCII bytes in one reusable array: numbers and durations are written
 * digit by digit, so rendering allocates only its output ({@link #toBytes()}).
 */
public final class AsciiBuffer {
    private byte[] buf = new byte[4096];
    private int len;

    public AsciiBuffer clear() {
        len = 0;
        return this;
    }

    public int length() {
        return len;
    }

    public AsciiBuffer append(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    public AsciiBuffer append(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    /** Copies {@code ascii}, bytes already encoded (a line written once and listed in many playlists). */
    public AsciiBuffer append(byte[] ascii) {
        ensure(ascii.length);
        System.arraycopy(ascii, 0, buf, len, ascii.length);
        len += ascii.length;
        return this;
    }

    public AsciiBuffer line(String ascii) {
        return append(ascii).append('\n');
    }

    public AsciiBuffer newline() {
        return append('\n');
    }

    public AsciiBuffer append(long v) {
        if (v < 0) {
            append('-');
            if (v == Long.MIN_VALUE) {
                return append("9223372036854775808");
            }
            v = -v;
        }
        ensure(20);
        int start = len;
        do {
            buf[len++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v > 0);
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
        return this;
    }

    /** {@code e5} hundred-thousandths as a decimal with five places: 20020 → {@code 0.20020}. */
    public AsciiBuffer decimal5(long e5) {
        append(e5 / 100_000).append('.');
        long frac = e5 % 100_000;
        for (long div = 10_000; div > 0; div /= 10) {
            append((char) ('0' + (frac / div) % 10));
        }
        return this;
    }

    /** {@code "value"}; the value must not contain a quote or a line break (names are ours). */
    public AsciiBuffer quoted(String value) {
        return append('"').append(value).append('"');
    }

    /** A copy of the bytes written: the playlist served to every viewer until the next change. */
    public byte[] toBytes() {
        return Arrays.copyOf(buf, len);
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }
}
