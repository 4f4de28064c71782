package io.tern.netty.stream;

import io.tern.stun.channel.ChannelDataFlyweight;
import io.tern.stun.message.StunHeaderFlyweight;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;

/**
 * Where one message ends in a TURN byte stream (RFC 8656 §3.1, §12.5): a STUN message is its
 * 20-byte header plus the header's length; ChannelData is its 4-byte header plus the data length,
 * padded to a multiple of 4. No I/O and no state: it looks at the first bytes of what has been
 * received and answers with the message's length, "need more" or "invalid".
 *
 * <p>It needs at most {@link #DECISION_BYTES} bytes to decide, and no answer exceeds
 * {@link #MAX_FRAME_BYTES}, so a reader that buffers only the current message stays bounded.
 */
public final class StreamFramer {
    /** Fewer bytes than needed to tell the message's length. */
    public static final int NEED_MORE = 0;
    /** Neither STUN nor ChannelData: the stream cannot be resynchronised and must be closed. */
    public static final int INVALID = -1;
    /** Bytes that always suffice to decide: a STUN header's type, length and magic cookie. */
    public static final int DECISION_BYTES = StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET + 4;
    /** The longest message: STUN with a 65535-byte body (ChannelData is at most 65540 padded). */
    public static final int MAX_FRAME_BYTES = StunHeaderFlyweight.HEADER_LENGTH + 0xFFFF;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    private static final int TYPE_BITS_MASK = 0xC0;
    private static final int STUN_TYPE_BITS = 0x00;
    private static final int CHANNEL_DATA_TYPE_BITS = 0x40;

    private StreamFramer() {}

    /**
     * The length on the wire of the message starting at {@code offset}, padding included, given
     * that {@code available} bytes from there have been received.
     *
     * @return a length of 4 to {@link #MAX_FRAME_BYTES}, possibly more than {@code available};
     *         {@link #NEED_MORE}; or {@link #INVALID}
     */
    public static int frameLength(DirectBuffer buffer, int offset, int available) {
        if (available <= 0) {
            return NEED_MORE;
        }
        int typeBits = buffer.getByte(offset) & TYPE_BITS_MASK;
        if (typeBits == CHANNEL_DATA_TYPE_BITS) {
            if (available < ChannelDataFlyweight.HEADER_LENGTH) {
                return NEED_MORE;
            }
            int dataBytes = buffer.getShort(offset + ChannelDataFlyweight.LENGTH_FIELD_OFFSET, ORDER) & 0xFFFF;
            return ChannelDataFlyweight.paddedLength(dataBytes);
        }
        if (typeBits != STUN_TYPE_BITS) {
            return INVALID;
        }
        if (available < StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET) {
            return NEED_MORE;
        }
        int bodyBytes = buffer.getShort(offset + StunHeaderFlyweight.LENGTH_FIELD_OFFSET, ORDER) & 0xFFFF;
        if ((bodyBytes & 3) != 0) {
            return INVALID;
        }
        if (available < DECISION_BYTES) {
            return NEED_MORE;
        }
        if (buffer.getInt(offset + StunHeaderFlyweight.MAGIC_COOKIE_FIELD_OFFSET, ORDER)
                != StunHeaderFlyweight.MAGIC_COOKIE) {
            return INVALID;
        }
        return StunHeaderFlyweight.HEADER_LENGTH + bodyBytes;
    }

    /**
     * How many bytes the reader should have before asking again, when {@link #frameLength}
     * answered {@link #NEED_MORE} with {@code available} bytes: never beyond the shortest message,
     * so that it never takes bytes of the next one.
     */
    public static int bytesToDecide(int available) {
        return available < ChannelDataFlyweight.HEADER_LENGTH ? ChannelDataFlyweight.HEADER_LENGTH : DECISION_BYTES;
    }
}
