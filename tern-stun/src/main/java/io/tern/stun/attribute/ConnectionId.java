package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import java.nio.ByteOrder;

/** CONNECTION-ID (RFC 6062 §6.2.1): a 32-bit number naming one peer TCP connection of an allocation. */
public final class ConnectionId {
    public static final long ABSENT = -1;
    public static final long MALFORMED = -2;

    private static final int VALUE_LENGTH = 4;

    private ConnectionId() {}

    /** The id as an unsigned number, {@link #ABSENT} or {@link #MALFORMED}. */
    public static long read(StunMessageDecoder message) {
        int offset = message.valueOffset(AttributeType.CONNECTION_ID);
        if (offset < 0) {
            return ABSENT;
        }
        if (message.valueLength(AttributeType.CONNECTION_ID) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return message.buffer().getInt(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    public static StunMessageWriter write(StunMessageWriter writer, long connectionId) {
        return writer.putInt(AttributeType.CONNECTION_ID, (int) connectionId);
    }
}
