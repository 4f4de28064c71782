package io.tern.rtmp.handshake;

/**
 * How a C1 or S1 is signed. The plain scheme is the RTMP specification's (§5.2): random bytes,
 * echoed back. The digest schemes are Flash Player 9's: an HMAC-SHA256 digest hidden at a
 * position computed from four bytes at offset 8 (scheme 0) or 772 (scheme 1) of the 1536.
 */
public enum HandshakeScheme {
    PLAIN(-1),
    DIGEST_OFFSET_8(8),
    DIGEST_OFFSET_772(772);

    private final int offsetBase;

    HandshakeScheme(int offsetBase) {
        this.offsetBase = offsetBase;
    }

    /** The position of the 32-byte digest in {@code packet} (1536 bytes, without C0/S0). */
    int digestPosition(byte[] packet, int packetOffset) {
        int sum = 0;
        for (int i = 0; i < 4; i++) {
            sum += packet[packetOffset + offsetBase + i] & 0xFF;
        }
        return sum % 728 + offsetBase + 4;
    }

    boolean digest() {
        return this != PLAIN;
    }
}
