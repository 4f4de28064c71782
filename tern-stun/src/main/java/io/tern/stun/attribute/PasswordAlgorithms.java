package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import java.nio.ByteOrder;

/**
 * PASSWORD-ALGORITHMS and PASSWORD-ALGORITHM (RFC 8489 §14.11, §14.12), as a server that offers
 * SHA-256 and MD5 (in that order) sees them.
 */
public final class PasswordAlgorithms {
    public static final int MD5 = 0x0001;
    public static final int SHA256 = 0x0002;
    /** The choice is missing, unknown, or does not echo the offer: 400. */
    public static final int INVALID = -1;

    /** The server's offer: SHA-256 then MD5, each with an empty parameter list. */
    private static final byte[] OFFER = {0, SHA256, 0, 0, 0, MD5, 0, 0};

    private PasswordAlgorithms() {}

    /** The value of the PASSWORD-ALGORITHMS attribute this server sends; shared, so callers must not modify it. */
    public static byte[] offer() {
        return OFFER;
    }

    /**
     * The algorithm a request uses (RFC 8489 §9.2.4): MD5 when it names none, the one
     * PASSWORD-ALGORITHM names when PASSWORD-ALGORITHMS echoes the offer byte for byte, else
     * {@link #INVALID} (an unknown choice, or a downgrade attempt).
     */
    public static int chosen(StunMessageDecoder message) {
        int chosenOffset = message.valueOffset(AttributeType.PASSWORD_ALGORITHM);
        int listOffset = message.valueOffset(AttributeType.PASSWORD_ALGORITHMS);
        if (chosenOffset < 0 && listOffset < 0) {
            return MD5;
        }
        if (chosenOffset < 0 || listOffset < 0 || message.valueLength(AttributeType.PASSWORD_ALGORITHM) < 4) {
            return INVALID;
        }
        if (message.valueLength(AttributeType.PASSWORD_ALGORITHMS) != OFFER.length) {
            return INVALID;
        }
        for (int i = 0; i < OFFER.length; i++) {
            if (message.buffer().getByte(listOffset + i) != OFFER[i]) {
                return INVALID;
            }
        }
        int chosen = message.buffer().getShort(chosenOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        return chosen == MD5 || chosen == SHA256 ? chosen : INVALID;
    }
}
