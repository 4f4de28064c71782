package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import java.nio.ByteOrder;

/** LIFETIME (RFC 8656 §18.4): seconds, an unsigned 32-bit number. */
public final class Lifetime {
    public static final long ABSENT = -1;
    public static final long MALFORMED = -2;

    private static final int VALUE_LENGTH = 4;

    private Lifetime() {}

    /** The seconds asked for, {@link #ABSENT} or {@link #MALFORMED}. */
    public static long readSeconds(StunMessageDecoder message) {
        int offset = message.valueOffset(AttributeType.LIFETIME);
        if (offset < 0) {
            return ABSENT;
        }
        if (message.valueLength(AttributeType.LIFETIME) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return message.buffer().getInt(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    public static StunMessageWriter write(StunMessageWriter writer, long seconds) {
        return writer.putInt(AttributeType.LIFETIME, (int) Math.min(seconds, 0xFFFF_FFFFL));
    }
}
