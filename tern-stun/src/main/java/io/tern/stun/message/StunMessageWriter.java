package io.tern.stun.message;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Appends a STUN message to a buffer, attribute by attribute, keeping the header's length field
 * current so that integrity and fingerprint can be computed at any point.
 */
public final class StunMessageWriter {
    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    private final StunHeaderFlyweight header = new StunHeaderFlyweight();
    private final MessageIntegrity integrity;
    private final Fingerprint fingerprint;
    private final byte[] macScratch = new byte[MessageIntegrity.SHA256_LENGTH];
    private MutableDirectBuffer buffer;
    private int offset;
    private int position;

    public StunMessageWriter(MessageIntegrity integrity, Fingerprint fingerprint) {
        this.integrity = integrity;
        this.fingerprint = fingerprint;
    }

    /** Starts a message with a transaction ID given as two parts (see {@link StunHeaderFlyweight}). */
    public StunMessageWriter start(MutableDirectBuffer buffer, int offset, int messageType, int tidHigh, long tidLow) {
        this.buffer = buffer;
        this.offset = offset;
        this.position = offset + StunHeaderFlyweight.HEADER_LENGTH;
        header.wrap(buffer, offset)
                .messageType(messageType)
                .bodyLength(0)
                .magicCookie(StunHeaderFlyweight.MAGIC_COOKIE)
                .transactionId(tidHigh, tidLow);
        return this;
    }

    /** Starts a response to the request whose header is at {@code request}. */
    public StunMessageWriter startResponse(
            MutableDirectBuffer buffer, int offset, int messageType, StunHeaderFlyweight request) {
        return start(buffer, offset, messageType, request.transactionIdHigh(), request.transactionIdLow());
    }

    public int length() {
        return position - offset;
    }

    public int offset() {
        return offset;
    }

    public MutableDirectBuffer buffer() {
        return buffer;
    }

    private int beginAttribute(int type, int valueLength) {
        buffer.putShort(position, (short) type, ORDER);
        buffer.putShort(position + 2, (short) valueLength, ORDER);
        return position + 4;
    }

    private StunMessageWriter endAttribute(int valueLength) {
        int valueOffset = position + 4;
        int padded = (valueLength + 3) & ~3;
        for (int i = valueLength; i < padded; i++) {
            buffer.putByte(valueOffset + i, (byte) 0);
        }
        position = valueOffset + padded;
        header.bodyLength(position - offset - StunHeaderFlyweight.HEADER_LENGTH);
        return this;
    }

    public StunMessageWriter putInt(int type, int value) {
        buffer.putInt(beginAttribute(type, 4), value, ORDER);
        return endAttribute(4);
    }

    public StunMessageWriter putEmpty(int type) {
        beginAttribute(type, 0);
        return endAttribute(0);
    }

    public StunMessageWriter putBytes(int type, byte[] value, int valueOffset, int valueLength) {
        buffer.putBytes(beginAttribute(type, valueLength), value, valueOffset, valueLength);
        return endAttribute(valueLength);
    }

    public StunMessageWriter putBytes(int type, byte[] value) {
        return putBytes(type, value, 0, value.length);
    }

    public StunMessageWriter putBytes(int type, DirectBuffer src, int srcOffset, int valueLength) {
        buffer.putBytes(beginAttribute(type, valueLength), src, srcOffset, valueLength);
        return endAttribute(valueLength);
    }

    public StunMessageWriter putXorAddress(int type, TransportAddress address) {
        int valueOffset = position + 4;
        int valueLength = AddressAttribute.encodeXor(buffer, offset, valueOffset, address);
        beginAttribute(type, valueLength);
        return endAttribute(valueLength);
    }

    public StunMessageWriter putAddress(int type, TransportAddress address) {
        int valueOffset = position + 4;
        int valueLength = AddressAttribute.encodePlain(buffer, valueOffset, address);
        beginAttribute(type, valueLength);
        return endAttribute(valueLength);
    }

    /** ERROR-CODE with the RFC reason phrase (RFC 8489 §14.8). */
    public StunMessageWriter putErrorCode(int code) {
        byte[] reason = ErrorCode.reason(code);
        int valueOffset = beginAttribute(AttributeType.ERROR_CODE, 4 + reason.length);
        buffer.putShort(valueOffset, (short) 0, ORDER);
        buffer.putByte(valueOffset + 2, (byte) (code / 100));
        buffer.putByte(valueOffset + 3, (byte) (code % 100));
        buffer.putBytes(valueOffset + 4, reason);
        return endAttribute(4 + reason.length);
    }

    public StunMessageWriter putUnknownAttributes(int[] types, int count) {
        int valueOffset = beginAttribute(AttributeType.UNKNOWN_ATTRIBUTES, count * 2);
        for (int i = 0; i < count; i++) {
            buffer.putShort(valueOffset + 2 * i, (short) types[i], ORDER);
        }
        return endAttribute(count * 2);
    }

    /** MESSAGE-INTEGRITY over everything written so far. */
    public StunMessageWriter putMessageIntegrity(byte[] key) {
        return putIntegrity(AttributeType.MESSAGE_INTEGRITY, MessageIntegrity.SHA1_LENGTH, key);
    }

    public StunMessageWriter putMessageIntegritySha256(byte[] key) {
        return putIntegrity(AttributeType.MESSAGE_INTEGRITY_SHA256, MessageIntegrity.SHA256_LENGTH, key);
    }

    private StunMessageWriter putIntegrity(int type, int macLength, byte[] key) {
        int attributeOffset = position;
        int valueOffset = beginAttribute(type, macLength);
        integrity.compute(buffer, offset, attributeOffset, macLength, key, macScratch);
        buffer.putBytes(valueOffset, macScratch, 0, macLength);
        return endAttribute(macLength);
    }

    /** FINGERPRINT, always last. */
    public StunMessageWriter putFingerprint() {
        int attributeOffset = position;
        int valueOffset = beginAttribute(AttributeType.FINGERPRINT, 4);
        header.bodyLength(attributeOffset + 8 - offset - StunHeaderFlyweight.HEADER_LENGTH);
        int crc = fingerprint.compute(buffer, offset, attributeOffset - offset);
        buffer.putInt(valueOffset, crc, ORDER);
        return endAttribute(4);
    }
}
