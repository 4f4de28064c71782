package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import java.nio.ByteOrder;

/** RESERVATION-TOKEN (RFC 8656 §18.9): 8 opaque bytes naming a reserved relay port. */
public final class ReservationToken {
    public static final int VALUE_LENGTH = 8;

    private ReservationToken() {}

    public static boolean isPresent(StunMessageDecoder message) {
        return message.has(AttributeType.RESERVATION_TOKEN);
    }

    public static boolean isWellFormed(StunMessageDecoder message) {
        return message.valueLength(AttributeType.RESERVATION_TOKEN) == VALUE_LENGTH;
    }

    /** The token; only meaningful when {@link #isWellFormed}. */
    public static long read(StunMessageDecoder message) {
        return message.buffer().getLong(message.valueOffset(AttributeType.RESERVATION_TOKEN), ByteOrder.BIG_ENDIAN);
    }

    /**
     * Writes the token through a scratch array of at least 8 bytes, so nothing is allocated; the
     * writer copies the bytes out before returning.
     */
    public static StunMessageWriter write(StunMessageWriter writer, long token, byte[] scratch8) {
        for (int i = 0; i < VALUE_LENGTH; i++) {
            scratch8[i] = (byte) (token >>> (56 - 8 * i));
        }
        return writer.putBytes(AttributeType.RESERVATION_TOKEN, scratch8, 0, VALUE_LENGTH);
    }
}
