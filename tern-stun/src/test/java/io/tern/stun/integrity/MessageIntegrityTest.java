package io.tern.stun.integrity;

import static io.tern.stun.TestBytes.MAX_MESSAGE_BYTES;
import static io.tern.stun.TestBytes.hex;
import static io.tern.stun.TestBytes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import java.nio.ByteOrder;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageIntegrityTest {
    private static final byte[] KEY = utf8("pass");

    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final StunMessageWriter writer = new StunMessageWriter(integrity, new Fingerprint(MAX_MESSAGE_BYTES));
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_MESSAGE_BYTES]);

    private void startBinding() {
        writer.start(
                buffer,
                0,
                StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST),
                0x11223344,
                0x5566778899AABBCCL);
    }

    @Test
    void longTermKeysAndUserHash() {
        // MD5("user:realm:pass") and SHA-256 of the same, computed independently.
        assertThat(MessageIntegrity.longTermKeyMd5(utf8("user"), utf8("realm"), utf8("pass")))
                .isEqualTo(hex("8493fbc53ba582fb4c044c456bdc40eb"));
        assertThat(MessageIntegrity.longTermKeySha256(utf8("user"), utf8("realm"), utf8("pass")))
                .hasSize(32)
                .isEqualTo(sha256(utf8("user:realm:pass")));
        assertThat(MessageIntegrity.userHash(utf8("user"), utf8("realm"))).isEqualTo(sha256(utf8("user:realm")));
    }

    private static byte[] sha256(byte[] input) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(input);
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 20, 24, 28, 32})
    void truncatedSha256Verifies(int macLength) {
        startBinding();
        writer.putBytes(AttributeType.USERNAME, utf8("user"));
        int attributeOffset = writer.length();
        byte[] mac = new byte[32];
        integrity.compute(buffer, 0, attributeOffset, AttributeType.MESSAGE_INTEGRITY_SHA256, macLength, KEY, mac);
        writer.putBytes(AttributeType.MESSAGE_INTEGRITY_SHA256, mac, 0, macLength);
        assertThat(decoder.decode(buffer, 0, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.integritySha256AttributeOffset()).isEqualTo(attributeOffset);
        assertThat(integrity.verify(buffer, 0, attributeOffset, KEY)).isTrue();
        assertThat(integrity.verify(buffer, 0, attributeOffset, utf8("pasS"))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 12, 18, 36, 64})
    void sha256OfDisallowedLengthFails(int macLength) {
        startBinding();
        writer.putBytes(AttributeType.MESSAGE_INTEGRITY_SHA256, new byte[macLength]);
        assertThat(integrity.verify(buffer, 0, StunHeaderFlyweight.HEADER_LENGTH, KEY))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 16, 19, 21, 32})
    void sha1OfWrongLengthFails(int macLength) {
        startBinding();
        writer.putBytes(AttributeType.MESSAGE_INTEGRITY, new byte[macLength]);
        assertThat(integrity.verify(buffer, 0, StunHeaderFlyweight.HEADER_LENGTH, KEY))
                .isFalse();
    }

    @Test
    void integrityCoversHeaderWithAdjustedLength() throws Exception {
        startBinding();
        writer.putBytes(AttributeType.USERNAME, utf8("user"))
                .putMessageIntegrity(KEY)
                .putFingerprint();
        byte[] message = new byte[writer.length()];
        buffer.getBytes(0, message);
        // HMAC-SHA1 over header+USERNAME with the length field counting up to the end of MESSAGE-INTEGRITY.
        byte[] input = java.util.Arrays.copyOf(message, 28);
        input[3] = (byte) (8 + 24);
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(KEY, "HmacSHA1"));
        byte[] expected = mac.doFinal(input);
        assertThat(java.util.Arrays.copyOfRange(message, 32, 52)).isEqualTo(expected);
        // And the message's own length field was not disturbed.
        assertThat(buffer.getShort(2, ByteOrder.BIG_ENDIAN)).isEqualTo((short) (writer.length() - 20));
    }

    @Test
    void everyByteBeforeIntegrityIsCovered() {
        startBinding();
        writer.putBytes(AttributeType.USERNAME, utf8("user"))
                .putInt(AttributeType.LIFETIME, 5)
                .putMessageIntegrity(KEY);
        int mi = writer.length() - 24;
        for (int i = 0; i < mi; i++) {
            if (i == 2 || i == 3) {
                continue; // the length field is replaced before hashing
            }
            byte before = buffer.getByte(i);
            buffer.putByte(i, (byte) (before ^ 0x80));
            assertThat(integrity.verify(buffer, 0, mi, KEY)).as("flip at %d", i).isFalse();
            buffer.putByte(i, before);
        }
        assertThat(integrity.verify(buffer, 0, mi, KEY)).isTrue();
    }

    @Test
    void sha256TruncatedToTwentyBytesIsStillHmacSha256() throws Exception {
        // 20 is a legal MESSAGE-INTEGRITY-SHA256 length (RFC 8489 §14.6); it must not be taken for HMAC-SHA1.
        startBinding();
        writer.putBytes(AttributeType.USERNAME, utf8("user"));
        int attributeOffset = writer.length();
        byte[] input = new byte[attributeOffset];
        buffer.getBytes(0, input);
        input[3] = (byte) (attributeOffset + 4 + 20 - StunHeaderFlyweight.HEADER_LENGTH);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        byte[] sha256 = mac.doFinal(input);
        writer.putBytes(AttributeType.MESSAGE_INTEGRITY_SHA256, sha256, 0, 20);
        assertThat(decoder.decode(buffer, 0, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(integrity.verify(buffer, 0, attributeOffset, KEY)).isTrue();

        Mac sha1 = Mac.getInstance("HmacSHA1");
        sha1.init(new SecretKeySpec(KEY, "HmacSHA1"));
        buffer.putBytes(attributeOffset + 4, sha1.doFinal(input));
        assertThat(integrity.verify(buffer, 0, attributeOffset, KEY)).isFalse();
    }

    @Test
    void emptyKeyIsAnOrdinaryHmacKey() throws Exception {
        // HMAC with an empty key is well defined (RFC 2104: zero-padded to the block size), and a
        // short-term password may be empty; verification must answer, not throw.
        startBinding();
        writer.putBytes(AttributeType.USERNAME, utf8("user"))
                .putMessageIntegrity(new byte[0])
                .putMessageIntegritySha256(new byte[0]);
        assertThat(decoder.decode(buffer, 0, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), new byte[0]))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), new byte[0]))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isFalse();
        // Same bytes as a one-byte zero key, which HMAC pads identically.
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), new byte[1]))
                .isTrue();
    }

    @Test
    void oneInstanceServesAlternatingKeysOverAnOffHeapBuffer() {
        UnsafeBuffer direct = new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(256));
        byte[] other = utf8("another user's key, longer than the 64-byte HMAC block, so it is hashed first");
        writer.start(direct, 8, StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST), 1, 2L)
                .putBytes(AttributeType.USERNAME, utf8("user"))
                .putMessageIntegrity(KEY)
                .putMessageIntegritySha256(other);
        assertThat(decoder.decode(direct, 8, writer.length())).isEqualTo(StunMessageDecoder.OK);
        int sha1 = decoder.integrityAttributeOffset();
        int sha256 = decoder.integritySha256AttributeOffset();
        for (int i = 0; i < 3; i++) {
            assertThat(integrity.verify(direct, 8, sha1, KEY)).isTrue();
            assertThat(integrity.verify(direct, 8, sha256, other)).isTrue();
            assertThat(integrity.verify(direct, 8, sha1, other)).isFalse();
            assertThat(integrity.verify(direct, 8, sha256, KEY)).isFalse();
        }
    }

    @Test
    void messagesLargerThanTheScratchSizeStillVerify() {
        // The decoder accepts any message up to 65555 bytes (STUN over TCP); a verifier sized for
        // UDP datagrams must answer for it, not throw.
        MessageIntegrity small = new MessageIntegrity(1500);
        Fingerprint smallFingerprint = new Fingerprint(1500);
        StunMessageWriter bigWriter = new StunMessageWriter(integrity, new Fingerprint(MAX_MESSAGE_BYTES));
        bigWriter
                .start(buffer, 0, StunClass.messageType(StunMethod.SEND, StunClass.INDICATION), 1, 2L)
                .putBytes(AttributeType.DATA, new byte[4000])
                .putMessageIntegrity(KEY)
                .putMessageIntegritySha256(KEY)
                .putFingerprint();
        assertThat(decoder.decode(buffer, 0, bigWriter.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(small.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isTrue();
        assertThat(small.verify(buffer, 0, decoder.integritySha256AttributeOffset(), KEY))
                .isTrue();
        assertThat(small.verify(buffer, 0, decoder.integrityAttributeOffset(), utf8("nope")))
                .isFalse();
        assertThat(new StunVerifier(smallFingerprint).fingerprintValid(decoder)).isTrue();
        buffer.putByte(100, (byte) 1);
        assertThat(small.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isFalse();
        assertThat(new StunVerifier(smallFingerprint).fingerprintValid(decoder)).isFalse();
    }

    @Test
    void smallWriterProducesTheSameBytesAsALargeOne() {
        UnsafeBuffer other = new UnsafeBuffer(new byte[MAX_MESSAGE_BYTES]);
        StunMessageWriter small = new StunMessageWriter(new MessageIntegrity(64), new Fingerprint(64));
        for (StunMessageWriter w : new StunMessageWriter[] {writer, small}) {
            w.start(
                            w == writer ? buffer : other,
                            0,
                            StunClass.messageType(StunMethod.DATA, StunClass.INDICATION),
                            3,
                            4L)
                    .putBytes(AttributeType.DATA, new byte[3001])
                    .putMessageIntegrity(KEY)
                    .putMessageIntegritySha256(KEY)
                    .putFingerprint();
        }
        assertThat(small.length()).isEqualTo(writer.length());
        for (int i = 0; i < writer.length(); i++) {
            assertThat(other.getByte(i)).as("byte %d", i).isEqualTo(buffer.getByte(i));
        }
    }
}
