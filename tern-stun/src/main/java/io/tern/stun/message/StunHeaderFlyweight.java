package io.tern.stun.message;

import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The 20-byte STUN header over a buffer (RFC 8489 §5). Re-wrapped for every packet; holds no state
 * of its own beyond the window it looks through.
 */
public final class StunHeaderFlyweight {
    public static final int TYPE_FIELD_OFFSET = 0;
    public static final int LENGTH_FIELD_OFFSET = 2;
    public static final int MAGIC_COOKIE_FIELD_OFFSET = 4;
    public static final int TRANSACTION_ID_FIELD_OFFSET = 8;
    public static final int TRANSACTION_ID_LENGTH = 12;
    public static final int HEADER_LENGTH = 20;
    public static final int MAGIC_COOKIE = 0x2112A442;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private DirectBuffer buffer;
    private int offset;

    public StunHeaderFlyweight wrap(DirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    public int messageType() {
        return buffer.getShort(offset + TYPE_FIELD_OFFSET, ORDER) & 0xFFFF;
    }

    public StunHeaderFlyweight messageType(int type) {
        mutable().putShort(offset + TYPE_FIELD_OFFSET, (short) type, ORDER);
        return this;
    }

    /** Length of the body after the header, in bytes. */
    public int bodyLength() {
        return buffer.getShort(offset + LENGTH_FIELD_OFFSET, ORDER) & 0xFFFF;
    }

    public StunHeaderFlyweight bodyLength(int length) {
        mutable().putShort(offset + LENGTH_FIELD_OFFSET, (short) length, ORDER);
        return this;
    }

    public int magicCookie() {
        return buffer.getInt(offset + MAGIC_COOKIE_FIELD_OFFSET, ORDER);
    }

    public StunHeaderFlyweight magicCookie(int cookie) {
        mutable().putInt(offset + MAGIC_COOKIE_FIELD_OFFSET, cookie, ORDER);
        return this;
    }

    /** The first 4 bytes of the transaction ID. With {@link #transactionIdLow()} it identifies the transaction. */
    public int transactionIdHigh() {
        return buffer.getInt(offset + TRANSACTION_ID_FIELD_OFFSET, ORDER);
    }

    /** The last 8 bytes of the transaction ID. */
    public long transactionIdLow() {
        return buffer.getLong(offset + TRANSACTION_ID_FIELD_OFFSET + 4, ORDER);
    }

    public StunHeaderFlyweight transactionId(int high, long low) {
        mutable().putInt(offset + TRANSACTION_ID_FIELD_OFFSET, high, ORDER);
        mutable().putLong(offset + TRANSACTION_ID_FIELD_OFFSET + 4, low, ORDER);
        return this;
    }

    /**
     * Whether the bytes could be a STUN message: top two bits zero, the magic cookie, a body length
     * that is a multiple of 4. Cheap enough to run before anything else.
     */
    public static boolean looksLikeStun(DirectBuffer buffer, int offset, int length) {
        return length >= HEADER_LENGTH
                && (buffer.getByte(offset) & 0xC0) == 0
                && buffer.getInt(offset + MAGIC_COOKIE_FIELD_OFFSET, ORDER) == MAGIC_COOKIE
                && (buffer.getShort(offset + LENGTH_FIELD_OFFSET, ORDER) & 0x3) == 0;
    }

    private MutableDirectBuffer mutable() {
        return (MutableDirectBuffer) buffer;
    }
}
