package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;

/** EVEN-PORT (RFC 8656 §18.8): one byte whose top bit (R) asks to reserve the next port too. */
public final class EvenPort {
    public static final int ABSENT = -1;
    public static final int MALFORMED = -2;
    /** An even port. */
    public static final int EVEN = 0;
    /** An even port, and the odd one above it held for a RESERVATION-TOKEN. */
    public static final int EVEN_RESERVE_NEXT = 1;

    private static final int VALUE_LENGTH = 1;
    private static final int R_BIT = 0x80;

    private EvenPort() {}

    public static int read(StunMessageDecoder message) {
        int offset = message.valueOffset(AttributeType.EVEN_PORT);
        if (offset < 0) {
            return ABSENT;
        }
        if (message.valueLength(AttributeType.EVEN_PORT) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return (message.buffer().getByte(offset) & R_BIT) != 0 ? EVEN_RESERVE_NEXT : EVEN;
    }

    public static StunMessageWriter write(StunMessageWriter writer, boolean reserveNext) {
        return writer.putBytes(AttributeType.EVEN_PORT, new byte[] {(byte) (reserveNext ? R_BIT : 0)});
    }
}
