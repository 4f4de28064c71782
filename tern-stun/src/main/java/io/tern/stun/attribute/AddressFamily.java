package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;

/**
 * REQUESTED-ADDRESS-FAMILY (RFC 8656 §18.6) and ADDITIONAL-ADDRESS-FAMILY (§18.11): a family byte
 * ({@link AddressAttribute#WIRE_FAMILY_IPV4} or {@link AddressAttribute#WIRE_FAMILY_IPV6}) and three
 * reserved bytes.
 */
public final class AddressFamily {
    public static final int ABSENT = -1;
    public static final int MALFORMED = -2;

    private static final int VALUE_LENGTH = 4;

    private AddressFamily() {}

    /** The family byte of attribute {@code type}, {@link #ABSENT} or {@link #MALFORMED}; any byte value is returned as is. */
    public static int read(StunMessageDecoder message, int type) {
        int offset = message.valueOffset(type);
        if (offset < 0) {
            return ABSENT;
        }
        if (message.valueLength(type) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return message.buffer().getByte(offset) & 0xFF;
    }

    public static StunMessageWriter write(StunMessageWriter writer, int type, int family) {
        return writer.putInt(type, family << 24);
    }
}
