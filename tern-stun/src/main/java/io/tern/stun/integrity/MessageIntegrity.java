package io.tern.stun.integrity;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunHeaderFlyweight;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;

/**
 * MESSAGE-INTEGRITY (HMAC-SHA1, RFC 8489 §14.5) and MESSAGE-INTEGRITY-SHA256 (§14.6). The HMAC
 * covers the message up to the integrity attribute, with the header's length field rewritten to
 * end just after it, which is why the bytes are copied into a scratch array first.
 */
public final class MessageIntegrity {
    public static final int SHA1_LENGTH = 20;
    public static final int SHA256_LENGTH = 32;

    private final Mac sha1;
    private final Mac sha256;
    private final byte[] scratch;
    private final byte[] digest = new byte[SHA256_LENGTH];

    public MessageIntegrity(int maxMessageBytes) {
        try {
            this.sha1 = Mac.getInstance("HmacSHA1");
            this.sha256 = Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks HmacSHA1/HmacSHA256", e);
        }
        this.scratch = new byte[maxMessageBytes];
    }

    /**
     * Computes the HMAC for an integrity attribute whose header starts at {@code attributeOffset}
     * (absolute) in the message at {@code messageOffset}, writing {@code macLength} bytes to {@code out}.
     */
    public void compute(DirectBuffer buffer, int messageOffset, int attributeOffset, int macLength, byte[] key, byte[] out) {
        int prefix = attributeOffset - messageOffset;
        buffer.getBytes(messageOffset, scratch, 0, prefix);
        int adjustedBodyLength = prefix + 4 + macLength - StunHeaderFlyweight.HEADER_LENGTH;
        scratch[StunHeaderFlyweight.LENGTH_FIELD_OFFSET] = (byte) (adjustedBodyLength >>> 8);
        scratch[StunHeaderFlyweight.LENGTH_FIELD_OFFSET + 1] = (byte) adjustedBodyLength;
        Mac mac = macLength == SHA1_LENGTH ? sha1 : sha256;
        try {
            mac.init(new SecretKeySpec(key, mac.getAlgorithm()));
            mac.update(scratch, 0, prefix);
            if (out.length >= mac.getMacLength()) {
                mac.doFinal(out, 0);
            } else {
                System.arraycopy(mac.doFinal(), 0, out, 0, out.length);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
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
        compute(buffer, messageOffset, attributeOffset, macLength, key, digest);
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
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(username);
            md.update((byte) ':');
            md.update(realm);
            return md.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] digestOf(String algorithm, byte[] username, byte[] realm, byte[] password) {
        try {
            MessageDigest md = MessageDigest.getInstance(algorithm);
            md.update(username);
            md.update((byte) ':');
            md.update(realm);
            md.update((byte) ':');
            md.update(password);
            return md.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
