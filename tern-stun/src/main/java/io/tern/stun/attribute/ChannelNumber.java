package io.tern.stun.attribute;

import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import java.nio.ByteOrder;

/** CHANNEL-NUMBER (RFC 8656 §18.1): a 16-bit channel number and two reserved bytes. */
public final class ChannelNumber {
    /** Absent or not 4 bytes long. */
    public static final int MALFORMED = -1;

    private static final int VALUE_LENGTH = 4;

    private ChannelNumber() {}

    /** The channel number, or {@link #MALFORMED} (which includes absent: ChannelBind requires it). */
    public static int read(StunMessageDecoder message) {
        int offset = message.valueOffset(AttributeType.CHANNEL_NUMBER);
        if (offset < 0 || message.valueLength(AttributeType.CHANNEL_NUMBER) != VALUE_LENGTH) {
            return MALFORMED;
        }
        return message.buffer().getShort(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    public static StunMessageWriter write(StunMessageWriter writer, int channel) {
        return writer.putInt(AttributeType.CHANNEL_NUMBER, channel << 16);
    }
}
