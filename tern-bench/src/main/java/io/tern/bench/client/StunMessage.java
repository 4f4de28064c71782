package io.tern.bench.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A decoded or to-be-encoded STUN message. This is a setup-path object (a few per allocation),
 * so it favours clarity over zero allocation; the data path uses {@link ChannelData} instead.
 */
public final class StunMessage {
    /** One attribute; {@code offset} is where the attribute header starts in the decoded message. */
    public record Attribute(int type, byte[] value, int offset) {}

    private final int messageType;
    private final byte[] transactionId;
    private final List<Attribute> attributes = new ArrayList<>();

    public StunMessage(int messageType, byte[] transactionId) {
        if (transactionId.length != Stun.TRANSACTION_ID_BYTES) {
            throw new IllegalArgumentException("transaction id must be 12 bytes");
        }
        this.messageType = messageType;
        this.transactionId = transactionId.clone();
    }

    public static StunMessage request(int method) {
        byte[] id = new byte[Stun.TRANSACTION_ID_BYTES];
        ThreadLocalRandom.current().nextBytes(id);
        return new StunMessage(Stun.messageType(method, Stun.CLASS_REQUEST), id);
    }

    public int messageType() {
        return messageType;
    }

    public int method() {
        return Stun.methodOf(messageType);
    }

    public int messageClass() {
        return Stun.classOf(messageType);
    }

    public byte[] transactionId() {
        return transactionId.clone();
    }

    public List<Attribute> attributes() {
        return attributes;
    }

    public StunMessage add(int type, byte[] value) {
        attributes.add(new Attribute(type, value.clone(), -1));
        return this;
    }

    public StunMessage addString(int type, String value) {
        return add(type, value.getBytes(StandardCharsets.UTF_8));
    }

    public StunMessage addInt(int type, int value) {
        return add(type, ByteBuffer.allocate(4).putInt(value).array());
    }

    public Attribute find(int type) {
        for (Attribute a : attributes) {
            if (a.type() == type) {
                return a;
            }
        }
        return null;
    }

    public String string(int type) {
        Attribute a = find(type);
        return a == null ? null : new String(a.value(), StandardCharsets.UTF_8);
    }

    /** Error code (class*100 + number) or -1 when absent (RFC 8489 §14.8). */
    public int errorCode() {
        Attribute a = find(Stun.ATTR_ERROR_CODE);
        if (a == null || a.value().length < 4) {
            return -1;
        }
        return (a.value()[2] & 0x07) * 100 + (a.value()[3] & 0xFF);
    }

    public boolean sameTransaction(byte[] other) {
        return Arrays.equals(transactionId, other);
    }

    /** Encodes without MESSAGE-INTEGRITY or FINGERPRINT. */
    public byte[] encode() {
        return encode(null, false, (byte) 0);
    }

    /**
     * Encodes the message, then appends MESSAGE-INTEGRITY (HMAC-SHA1 with {@code integrityKey}, if
     * non-null) and FINGERPRINT (if asked). Padding bytes are {@code padByte}: zero on the wire,
     * but RFC 5769's vectors pad with spaces, which tests need to reproduce.
     */
    public byte[] encode(byte[] integrityKey, boolean fingerprint, byte padByte) {
        int bodyBytes = 0;
        for (Attribute a : attributes) {
            bodyBytes += 4 + Stun.padded(a.value().length);
        }
        int total = Stun.HEADER_BYTES
                + bodyBytes
                + (integrityKey != null ? 4 + Stun.MESSAGE_INTEGRITY_BYTES : 0)
                + (fingerprint ? 8 : 0);
        ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.BIG_ENDIAN);
        b.putShort((short) messageType)
                .putShort((short) 0)
                .putInt(Stun.MAGIC_COOKIE)
                .put(transactionId);
        for (Attribute a : attributes) {
            b.putShort((short) a.type()).putShort((short) a.value().length).put(a.value());
            for (int i = a.value().length; i < Stun.padded(a.value().length); i++) {
                b.put(padByte);
            }
        }
        byte[] out = b.array();
        if (integrityKey != null) {
            int miOffset = b.position();
            // The length covers the header-less body up to and including MESSAGE-INTEGRITY.
            setLength(out, miOffset + 4 + Stun.MESSAGE_INTEGRITY_BYTES - Stun.HEADER_BYTES);
            byte[] mac = Stun.hmacSha1(integrityKey, out, 0, miOffset);
            b.putShort((short) Stun.ATTR_MESSAGE_INTEGRITY)
                    .putShort((short) Stun.MESSAGE_INTEGRITY_BYTES)
                    .put(mac);
        }
        if (fingerprint) {
            int fpOffset = b.position();
            setLength(out, fpOffset + 8 - Stun.HEADER_BYTES);
            int crc = Stun.fingerprint(out, 0, fpOffset);
            b.putShort((short) Stun.ATTR_FINGERPRINT).putShort((short) 4).putInt(crc);
        }
        setLength(out, total - Stun.HEADER_BYTES);
        return out;
    }

    private static void setLength(byte[] message, int length) {
        message[2] = (byte) (length >>> 8);
        message[3] = (byte) length;
    }

    /**
     * Decodes a STUN message from {@code bytes[offset, offset+length)}.
     *
     * @throws IllegalArgumentException if it is not a well-formed STUN message
     */
    public static StunMessage decode(byte[] bytes, int offset, int length) {
        if (length < Stun.HEADER_BYTES || !Stun.isStun(bytes[offset])) {
            throw new IllegalArgumentException("not a STUN message");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.BIG_ENDIAN);
        int type = b.getShort() & 0x3FFF;
        int bodyBytes = b.getShort() & 0xFFFF;
        if (b.getInt() != Stun.MAGIC_COOKIE) {
            throw new IllegalArgumentException("bad magic cookie");
        }
        if ((bodyBytes & 3) != 0 || Stun.HEADER_BYTES + bodyBytes > length) {
            throw new IllegalArgumentException("bad length " + bodyBytes);
        }
        byte[] id = new byte[Stun.TRANSACTION_ID_BYTES];
        b.get(id);
        StunMessage m = new StunMessage(type, id);
        int end = offset + Stun.HEADER_BYTES + bodyBytes;
        while (b.position() + 4 <= end) {
            int attrOffset = b.position() - offset;
            int attrType = b.getShort() & 0xFFFF;
            int attrLength = b.getShort() & 0xFFFF;
            if (b.position() + attrLength > end) {
                throw new IllegalArgumentException("attribute 0x" + Integer.toHexString(attrType) + " overruns");
            }
            byte[] value = new byte[attrLength];
            b.get(value);
            b.position(Math.min(end, b.position() + Stun.padded(attrLength) - attrLength));
            m.attributes.add(new Attribute(attrType, value, attrOffset));
        }
        return m;
    }

    /**
     * Checks MESSAGE-INTEGRITY of a message decoded from {@code bytes} (which must start at the
     * message header) with {@code key}. Returns false if the attribute is missing or wrong.
     */
    public boolean verifyIntegrity(byte[] bytes, int offset, byte[] key) {
        Attribute mi = find(Stun.ATTR_MESSAGE_INTEGRITY);
        if (mi == null || mi.offset() < 0) {
            return false;
        }
        byte[] copy = Arrays.copyOfRange(bytes, offset, offset + mi.offset());
        setLength(copy, mi.offset() + 4 + Stun.MESSAGE_INTEGRITY_BYTES - Stun.HEADER_BYTES);
        return MessageDigest.isEqual(Stun.hmacSha1(key, copy, 0, copy.length), mi.value());
    }

    /** Checks FINGERPRINT; false if missing or wrong. */
    public boolean verifyFingerprint(byte[] bytes, int offset) {
        Attribute fp = find(Stun.ATTR_FINGERPRINT);
        if (fp == null || fp.offset() < 0 || fp.value().length != 4) {
            return false;
        }
        int expected = ByteBuffer.wrap(fp.value()).getInt();
        return Stun.fingerprint(bytes, offset, fp.offset()) == expected;
    }
}
