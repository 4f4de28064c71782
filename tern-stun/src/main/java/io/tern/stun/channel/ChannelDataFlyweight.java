package io.tern.stun.channel;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A ChannelData message (RFC 8656 §12.4): 2-byte channel number, 2-byte length, then the
 * application data. Over TCP and TLS it is padded to a multiple of 4 bytes (§12.5); over UDP the
 * padding is optional.
 */
public final class ChannelDataFlyweight {
    public static final int CHANNEL_NUMBER_FIELD_OFFSET = 0;
    public static final int LENGTH_FIELD_OFFSET = 2;
    public static final int HEADER_LENGTH = 4;
    public static final int MIN_CHANNEL = 0x4000;
    public static final int MAX_CHANNEL = 0x4FFF;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private DirectBuffer buffer;
    private int offset;

    public ChannelDataFlyweight wrap(DirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public int channelNumber() {
        return buffer.getShort(offset + CHANNEL_NUMBER_FIELD_OFFSET, ORDER) & 0xFFFF;
    }

    public ChannelDataFlyweight channelNumber(int channel) {
        ((MutableDirectBuffer) buffer).putShort(offset + CHANNEL_NUMBER_FIELD_OFFSET, (short) channel, ORDER);
        return this;
    }

    public int dataLength() {
        return buffer.getShort(offset + LENGTH_FIELD_OFFSET, ORDER) & 0xFFFF;
    }

    public ChannelDataFlyweight dataLength(int length) {
        ((MutableDirectBuffer) buffer).putShort(offset + LENGTH_FIELD_OFFSET, (short) length, ORDER);
        return this;
    }

    public int dataOffset() {
        return offset + HEADER_LENGTH;
    }

    /** The first two bits 0b01 mark ChannelData, 0b00 STUN (RFC 8656 §12). */
    public static boolean isChannelData(DirectBuffer buffer, int offset, int length) {
        return length >= HEADER_LENGTH && (buffer.getByte(offset) & 0xC0) == 0x40;
    }

    /** Bytes a ChannelData message with {@code dataBytes} of data takes on a stream, padding included. */
    public static int paddedLength(int dataBytes) {
        return (HEADER_LENGTH + dataBytes + 3) & ~3;
    }
}
