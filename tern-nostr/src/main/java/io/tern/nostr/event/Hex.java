package io.tern.nostr.event;

/** Strict lowercase hexadecimal, as NIP-01 requires for ids, keys and signatures. */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    /** True when {@code s} is exactly {@code chars} characters of {@code [0-9a-f]}. */
    public static boolean isLowerHex(String s, int chars) {
        if (s == null || s.length() != chars) {
            return false;
        }
        for (int i = 0; i < chars; i++) {
            if (nibble(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Decodes lowercase hex; the caller has checked it with {@link #isLowerHex}. */
    public static byte[] decode(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = nibble(s.charAt(2 * i));
            int lo = nibble(s.charAt(2 * i + 1));
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("not lowercase hex");
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
        }
        return new String(out);
    }

    private static int nibble(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }
}
