package io.tern.turn.testing;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A STUN message the engine sent, checked for well-formedness on parse (valid header, attributes
 * that fit, a correct FINGERPRINT when present) and read attribute by attribute, repeats included.
 */
public final class StunResponse {
    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;

    public record Attribute(int type, int valueOffset, int valueLength, int attributeOffset) {}

    public final byte[] bytes;
    public final UnsafeBuffer buffer;
    public final List<Attribute> attributes = new ArrayList<>();

    private StunResponse(byte[] bytes) {
        this.bytes = bytes;
        this.buffer = new UnsafeBuffer(bytes);
    }

    public static StunResponse parse(byte[] bytes) {
        StunResponse response = new StunResponse(bytes.clone());
        StunMessageDecoder decoder = new StunMessageDecoder();
        int result = decoder.decode(response.buffer, 0, bytes.length);
        if (result != StunMessageDecoder.OK) {
            throw new AssertionError("engine sent a malformed STUN message (" + result + ")");
        }
        if (!new StunVerifier(new Fingerprint(bytes.length)).fingerprintValid(decoder)) {
            throw new AssertionError("engine sent a bad FINGERPRINT");
        }
        int position = StunHeaderFlyweight.HEADER_LENGTH;
        while (position < bytes.length) {
            int type = response.buffer.getShort(position, ORDER) & 0xFFFF;
            int length = response.buffer.getShort(position + 2, ORDER) & 0xFFFF;
            response.attributes.add(new Attribute(type, position + 4, length, position));
            position += 4 + ((length + 3) & ~3);
        }
        return response;
    }

    public int messageType() {
        return buffer.getShort(0, ORDER) & 0xFFFF;
    }

    public int method() {
        return StunClass.methodOf(messageType());
    }

    public int messageClass() {
        return StunClass.classOf(messageType());
    }

    public boolean isSuccess() {
        return messageClass() == StunClass.SUCCESS_RESPONSE;
    }

    public int transactionIdHigh() {
        return buffer.getInt(StunHeaderFlyweight.TRANSACTION_ID_FIELD_OFFSET, ORDER);
    }

    public long transactionIdLow() {
        return buffer.getLong(StunHeaderFlyweight.TRANSACTION_ID_FIELD_OFFSET + 4, ORDER);
    }

    public Attribute attribute(int type) {
        for (Attribute a : attributes) {
            if (a.type == type) {
                return a;
            }
        }
        return null;
    }

    public boolean has(int type) {
        return attribute(type) != null;
    }

    public int count(int type) {
        int n = 0;
        for (Attribute a : attributes) {
            if (a.type == type) {
                n++;
            }
        }
        return n;
    }

    public byte[] value(int type) {
        Attribute a = attribute(type);
        if (a == null) {
            return null;
        }
        byte[] v = new byte[a.valueLength];
        buffer.getBytes(a.valueOffset, v);
        return v;
    }

    public String text(int type) {
        byte[] v = value(type);
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    /** The ERROR-CODE as a number, or 0 for none. */
    public int errorCode() {
        Attribute a = attribute(AttributeType.ERROR_CODE);
        if (a == null) {
            return 0;
        }
        return (buffer.getByte(a.valueOffset + 2) & 0x07) * 100 + (buffer.getByte(a.valueOffset + 3) & 0xFF);
    }

    public int lifetimeSeconds() {
        Attribute a = attribute(AttributeType.LIFETIME);
        return a == null ? -1 : buffer.getInt(a.valueOffset, ORDER);
    }

    public TransportAddress xorAddress(int type) {
        List<TransportAddress> all = xorAddresses(type);
        return all.isEmpty() ? null : all.get(0);
    }

    /** Every plain (not XOR) address attribute of this type, in order: ALTERNATE-SERVER, MAPPED-ADDRESS. */
    public List<TransportAddress> addresses(int type) {
        List<TransportAddress> out = new ArrayList<>();
        for (Attribute a : attributes) {
            if (a.type == type) {
                TransportAddress address = new TransportAddress();
                if (!AddressAttribute.decodePlain(buffer, a.valueOffset, a.valueLength, address, new byte[16])) {
                    throw new AssertionError("bad address in attribute 0x" + Integer.toHexString(type));
                }
                out.add(address);
            }
        }
        return out;
    }

    public List<TransportAddress> xorAddresses(int type) {
        List<TransportAddress> out = new ArrayList<>();
        for (Attribute a : attributes) {
            if (a.type == type) {
                TransportAddress address = new TransportAddress();
                if (!AddressAttribute.decodeXor(buffer, 0, a.valueOffset, a.valueLength, address, new byte[16])) {
                    throw new AssertionError("bad XOR address in attribute 0x" + Integer.toHexString(type));
                }
                out.add(address);
            }
        }
        return out;
    }

    public List<Integer> unknownAttributes() {
        Attribute a = attribute(AttributeType.UNKNOWN_ATTRIBUTES);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; a != null && i + 1 < a.valueLength; i += 2) {
            out.add(buffer.getShort(a.valueOffset + i, ORDER) & 0xFFFF);
        }
        return out;
    }

    /** Whether the message carries an integrity attribute of this type that verifies with {@code key}. */
    public boolean integrityValid(int integrityType, byte[] key) {
        Attribute a = attribute(integrityType);
        return a != null && new MessageIntegrity(bytes.length).verify(buffer, 0, a.attributeOffset, key);
    }

    @Override
    public String toString() {
        int code = errorCode();
        return "STUN type=0x" + Integer.toHexString(messageType()) + (code != 0 ? " error=" + code : "") + " attrs="
                + attributes.stream()
                        .map(a -> "0x" + Integer.toHexString(a.type))
                        .toList();
    }
}
