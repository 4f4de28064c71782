package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;

/** REQUESTED-TRANSPORT (RFC 8656 §18.7): an IANA protocol number and three reserved bytes. */
public final class RequestedTransport {
    public static final int UDP = 17;
    /** RFC 6062 §6.2: a TCP allocation. */
    public static final int TCP = 6;

    public static final int ABSENT = -1;
    public static final int MALFORMED = -2;

    private static final int VALUE_LENGTH = 4;

    private RequestedTransport() {}

    /** The protocol number, {@link #ABSENT} or {@link #MALFORMED}. */
    public static int read(StunMessageDecoder message) {
        int offset = message.valueOffset(AttributeType.REQUESTED_TRANSPORT);
        if (offset < 0) {
            return ABSENT;
        }
        if (message.valueLength(AttributeType.REQUESTED_TRANSPORT) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return message.buffer().getByte(offset) & 0xFF;
    }

    public static StunMessageWriter write(StunMessageWriter writer, int protocol) {
        return writer.putInt(AttributeType.REQUESTED_TRANSPORT, protocol << 24);
    }
}
