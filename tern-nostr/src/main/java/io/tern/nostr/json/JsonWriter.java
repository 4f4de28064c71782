package io.tern.nostr.json;

import java.util.Arrays;

/**
 * The hand-written JSON writer behind the event id: NIP-01 fixes the serialisation byte for byte,
 * so it is not left to a library's choices. Strings are written as UTF-8 with exactly these escapes:
 * {@code \n \" \\ \r \t \b \f} by name, every other character below U+0020 as {@code \}{@code u00xx}
 * (lowercase hex), a lone surrogate as {@code \}{@code udxxx}, and everything else verbatim. This is
 * what JavaScript's {@code JSON.stringify} (and so nostr-tools) produces, which is how nearly every
 * event in the wild was signed; NIP-01's list covers the named escapes and leaves the rest to it.
 *
 * <p>One writer is reused for many documents ({@link #reset()}); it grows as needed and is not
 * thread-safe.
 */
public final class JsonWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] buf;
    private int length;

    public JsonWriter() {
        this(512);
    }

    public JsonWriter(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    public JsonWriter reset() {
        length = 0;
        return this;
    }

    public int length() {
        return length;
    }

    /** The backing array; valid bytes are {@code [0, length())}. */
    public byte[] array() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, length);
    }

    public JsonWriter raw(char asciiChar) {
        ensure(1);
        buf[length++] = (byte) asciiChar;
        return this;
    }

    /** Appends ASCII text as it is (structural JSON, hex, names known to need no escaping). */
    public JsonWriter ascii(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[length++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    public JsonWriter raw(byte[] bytes) {
        return raw(bytes, 0, bytes.length);
    }

    public JsonWriter raw(byte[] bytes, int offset, int count) {
        ensure(count);
        System.arraycopy(bytes, offset, buf, length, count);
        length += count;
        return this;
    }

    public JsonWriter number(long value) {
        if (value == Long.MIN_VALUE) {
            return ascii(Long.toString(value));
        }
        if (value < 0) {
            raw('-');
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        ensure(digits);
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            buf[i] = (byte) ('0' + (value % 10));
            value /= 10;
        }
        length = end;
        return this;
    }

    public JsonWriter bool(boolean value) {
        return ascii(value ? "true" : "false");
    }

    /** Appends {@code s} as a quoted JSON string with the escapes described in the class comment. */
    public JsonWriter string(String s) {
        int n = s.length();
        // Worst case: every char a 6-byte \\u escape, plus the quotes.
        ensure(n * 6 + 2);
        byte[] b = buf;
        int p = length;
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80) {
                if (c == '"' || c == '\\') {
                    b[p++] = '\\';
                }
                b[p++] = (byte) c;
            } else if (c < 0x20) {
                p = control(b, p, c);
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | (c >> 6));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | (cp >> 18));
                b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                p = unicodeEscape(b, p, c);
            } else {
                b[p++] = (byte) (0xE0 | (c >> 12));
                b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[p++] = '"';
        length = p;
        return this;
    }

    private static int control(byte[] b, int p, char c) {
        char named = switch (c) {
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> 0;
        };
        if (named == 0) {
            return unicodeEscape(b, p, c);
        }
        b[p++] = '\\';
        b[p++] = (byte) named;
        return p;
    }

    private static int unicodeEscape(byte[] b, int p, char c) {
        b[p++] = '\\';
        b[p++] = 'u';
        b[p++] = HEX[(c >> 12) & 0xF];
        b[p++] = HEX[(c >> 8) & 0xF];
        b[p++] = HEX[(c >> 4) & 0xF];
        b[p++] = HEX[c & 0xF];
        return p;
    }

    private void ensure(int more) {
        if (length + more > buf.length) {
            long wanted = Math.max((long) buf.length * 2, (long) length + more);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("JSON document too large");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }
}
