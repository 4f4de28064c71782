package io.tern.stun.integrity;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunHeaderFlyweight;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import org.agrona.DirectBuffer;

/**
 * MESSAGE-INTEGRITY (HMAC-SHA1, RFC 8489 §14.5) and MESSAGE-INTEGRITY-SHA256 (§14.6). The HMAC
 * covers the message up to the integrity attribute, with the header's length field rewritten to
 * end just after it, which is why the bytes are copied into a scratch array first.
 */
public final class MessageIntegrity {
    public static final int SHA1_LENGTH = 20;
    public static final int SHA256_LENGTH = 32;

    private final Hmac sha1 = new Hmac("SHA-1");
    private final Hmac sha256 = new Hmac("SHA-256");
    private final byte[] scratch;
    private final byte[] digest = new byte[SHA256_LENGTH];

    public MessageIntegrity(int maxMessageBytes) {
        this.scratch = new byte[Math.max(maxMessageBytes, StunHeaderFlyweight.HEADER_LENGTH)];
    }

    /**
     * Computes the HMAC for an integrity attribute whose header starts at {@code attributeOffset}
     * (absolute) in the message at {@code messageOffset}, writing its first {@code min(out.length, 20 or 32)}
     * bytes to {@code out}. A {@code macLength} of 20 means HMAC-SHA1, anything else HMAC-SHA256; to compute a
     * MESSAGE-INTEGRITY-SHA256 truncated to 20 bytes, use the overload that takes the attribute type.
     */
    public void compute(
            DirectBuffer buffer, int messageOffset, int attributeOffset, int macLength, byte[] key, byte[] out) {
        int type = macLength == SHA1_LENGTH ? AttributeType.MESSAGE_INTEGRITY : AttributeType.MESSAGE_INTEGRITY_SHA256;
        compute(buffer, messageOffset, attributeOffset, type, macLength, key, out);
    }

    /**
     * As {@link #compute(DirectBuffer, int, int, int, byte[], byte[])}, with the HMAC chosen by
     * {@code attributeType}: HMAC-SHA1 for MESSAGE-INTEGRITY, HMAC-SHA256 otherwise. Allocates nothing.
     */
    public void compute(
            DirectBuffer buffer,
            int messageOffset,
            int attributeOffset,
            int attributeType,
            int macLength,
            byte[] key,
            byte[] out) {
        int prefix = attributeOffset - messageOffset;
        int adjustedBodyLength = prefix + 4 + macLength - StunHeaderFlyweight.HEADER_LENGTH;
        Hmac mac = attributeType == AttributeType.MESSAGE_INTEGRITY ? sha1 : sha256;
        mac.start(key);
        int headerBytes = Math.min(prefix, StunHeaderFlyweight.HEADER_LENGTH);
        buffer.getBytes(messageOffset, scratch, 0, headerBytes);
        scratch[StunHeaderFlyweight.LENGTH_FIELD_OFFSET] = (byte) (adjustedBodyLength >>> 8);
        scratch[StunHeaderFlyweight.LENGTH_FIELD_OFFSET + 1] = (byte) adjustedBodyLength;
        mac.update(scratch, 0, headerBytes);
        for (int done = headerBytes; done < prefix; ) {
            int chunk = Math.min(scratch.length, prefix - done);
            buffer.getBytes(messageOffset + done, scratch, 0, chunk);
            mac.update(scratch, 0, chunk);
            done += chunk;
        }
        mac.finish(out);
    }

    /**
     * Verifies the integrity attribute at {@code attributeOffset}. SHA-256 values may be truncated to
     * 16..32 bytes in multiples of 4 (§14.6); anything else fails.
     */
    public boolean verify(DirectBuffer buffer, int messageOffset, int attributeOffset, byte[] key) {
        int valueLength = buffer.getShort(attributeOffset + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        int type = buffer.getShort(attributeOffset, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        int macLength;
        if (type == AttributeType.MESSAGE_INTEGRITY) {
            if (valueLength != SHA1_LENGTH) {
                return false;
            }
            macLength = SHA1_LENGTH;
        } else {
            if (valueLength < 16 || valueLength > SHA256_LENGTH || (valueLength & 3) != 0) {
                return false;
            }
            macLength = valueLength;
        }
        // A truncated SHA-256 value is compared on its prefix; compute() already counts the truncated length.
        compute(buffer, messageOffset, attributeOffset, type, macLength, key, digest);
        int diff = 0;
        for (int i = 0; i < macLength; i++) {
            diff |= digest[i] ^ buffer.getByte(attributeOffset + 4 + i);
        }
        return diff == 0;
    }

    /** The long-term key MD5(username:realm:password) of RFC 8489 §9.2.2. */
    public static byte[] longTermKeyMd5(byte[] username, byte[] realm, byte[] password) {
        return digestOf("MD5", username, realm, password);
    }

    /** The long-term key SHA-256(username:realm:password) for PASSWORD-ALGORITHM SHA-256. */
    public static byte[] longTermKeySha256(byte[] username, byte[] realm, byte[] password) {
        return digestOf("SHA-256", username, realm, password);
    }

    /** USERHASH = SHA-256(username:realm) (RFC 8489 §14.4). */
    public static byte[] userHash(byte[] username, byte[] realm) {
        return digestOf("SHA-256", username, realm);
    }

    /** The digest of the parts joined with ':'. */
    private static byte[] digestOf(String algorithm, byte[]... parts) {
        try {
            MessageDigest md = MessageDigest.getInstance(algorithm);
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    md.update((byte) ':');
                }
                md.update(parts[i]);
            }
            return md.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
