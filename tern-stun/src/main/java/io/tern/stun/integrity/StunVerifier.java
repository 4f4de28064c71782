package io.tern.stun.integrity;

import io.tern.stun.message.StunMessageDecoder;
import java.nio.ByteOrder;

/** Checks the FINGERPRINT of a decoded message (RFC 8489 §14.7). */
public final class StunVerifier {
    private final Fingerprint fingerprint;

    public StunVerifier(Fingerprint fingerprint) {
        this.fingerprint = fingerprint;
    }

    /** True when the message has no FINGERPRINT, or has a correct one. */
    public boolean fingerprintValid(StunMessageDecoder message) {
        int attributeOffset = message.fingerprintAttributeOffset();
        if (attributeOffset < 0) {
            return true;
        }
        if ((message.buffer().getShort(attributeOffset + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF) != 4) {
            return false;
        }
        int expected = fingerprint.compute(message.buffer(), message.offset(), attributeOffset - message.offset());
        return expected == message.buffer().getInt(attributeOffset + 4, ByteOrder.BIG_ENDIAN);
    }
}
