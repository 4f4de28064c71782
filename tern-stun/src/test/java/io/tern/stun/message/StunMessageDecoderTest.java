package io.tern.stun.message;

import static io.tern.stun.TestBytes.MAX_MESSAGE_BYTES;
import static io.tern.stun.TestBytes.bufferOf;
import static io.tern.stun.TestBytes.hex;
import static io.tern.stun.TestBytes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Input the decoder must turn away, and the RFC 8489 §14 rules on what it must ignore. */
class StunMessageDecoderTest {
    private static final byte[] KEY = utf8("key");

    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final StunMessageWriter writer = new StunMessageWriter(integrity, new Fingerprint(MAX_MESSAGE_BYTES));
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final StunVerifier verifier = new StunVerifier(new Fingerprint(MAX_MESSAGE_BYTES));
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);

    @BeforeEach
    void start() {
        writer.start(buffer, 0, StunClass.messageType(StunMethod.ALLOCATE, StunClass.REQUEST), 1, 2L);
    }

    private int decode() {
        return decoder.decode(buffer, 0, writer.length());
    }

    /** Appends a raw attribute header claiming {@code valueLength}, with {@code bodyBytes} after it, and fixes the header length. */
    private void appendRaw(int type, int valueLength, int bodyBytes) {
        int at = writer.length();
        buffer.putShort(at, (short) type, ByteOrder.BIG_ENDIAN);
        buffer.putShort(at + 2, (short) valueLength, ByteOrder.BIG_ENDIAN);
        buffer.setMemory(at + 4, bodyBytes, (byte) 0);
        decoder.header().wrap(buffer, 0).bodyLength(at + 4 + bodyBytes - StunHeaderFlyweight.HEADER_LENGTH);
    }

    private int rawLength() {
        return StunHeaderFlyweight.HEADER_LENGTH + (buffer.getShort(2, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4, 19})
    void truncatedHeaderIsNotStun(int length) {
        byte[] header = hex("00010000 2112a442 000000000000000000000000");
        assertThat(decoder.decode(new UnsafeBuffer(header), 0, length)).isEqualTo(StunMessageDecoder.NOT_STUN);
    }

    @Test
    void wrongCookieOrFirstBitsIsNotStun() {
        writer.putInt(AttributeType.LIFETIME, 1);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        buffer.putByte(7, (byte) 0x43);
        assertThat(decode()).isEqualTo(StunMessageDecoder.NOT_STUN);
        buffer.putByte(7, (byte) 0x42);
        buffer.putByte(0, (byte) 0x40);
        assertThat(decode()).isEqualTo(StunMessageDecoder.NOT_STUN);
        buffer.putByte(0, (byte) 0x80);
        assertThat(decode()).isEqualTo(StunMessageDecoder.NOT_STUN);
    }

    @Test
    void lengthFieldNotMatchingDatagramIsNotStun() {
        writer.putInt(AttributeType.LIFETIME, 1);
        int length = writer.length();
        assertThat(decoder.decode(buffer, 0, length - 4)).isEqualTo(StunMessageDecoder.NOT_STUN);
        assertThat(decoder.decode(buffer, 0, length + 4)).isEqualTo(StunMessageDecoder.NOT_STUN);
        assertThat(decoder.decode(buffer, 0, length + 1)).isEqualTo(StunMessageDecoder.NOT_STUN);
        assertThat(decoder.decode(buffer, 0, length)).isEqualTo(StunMessageDecoder.OK);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 10})
    void lengthNotMultipleOfFourIsNotStun(int bodyLength) {
        writer.putBytes(AttributeType.DATA, new byte[12]);
        decoder.header().wrap(buffer, 0).bodyLength(bodyLength);
        assertThat(decoder.decode(buffer, 0, StunHeaderFlyweight.HEADER_LENGTH + bodyLength))
                .isEqualTo(StunMessageDecoder.NOT_STUN);
    }

    @Test
    void attributeOverrunningTheMessageIsMalformed() {
        writer.putInt(AttributeType.LIFETIME, 1);
        appendRaw(AttributeType.DATA, 100, 8);
        assertThat(decoder.decode(buffer, 0, rawLength())).isEqualTo(StunMessageDecoder.MALFORMED);
    }

    @Test
    void paddingOverrunningTheMessageIsMalformed() {
        // Value fits exactly, but its padding to 4 bytes would not.
        appendRaw(AttributeType.DATA, 5, 4);
        assertThat(decoder.decode(buffer, 0, rawLength())).isEqualTo(StunMessageDecoder.MALFORMED);
        appendRaw(AttributeType.DATA, 5, 8);
        assertThat(decoder.decode(buffer, 0, rawLength())).isEqualTo(StunMessageDecoder.OK);
    }

    @Test
    void maximumValueLengthOverrunIsMalformed() {
        appendRaw(AttributeType.DATA, 0xFFFF, 8);
        assertThat(decoder.decode(buffer, 0, rawLength())).isEqualTo(StunMessageDecoder.MALFORMED);
    }

    @Test
    void attributeAfterFingerprintIsMalformed() {
        writer.putInt(AttributeType.LIFETIME, 1).putFingerprint().putInt(AttributeType.LIFETIME, 2);
        assertThat(decode()).isEqualTo(StunMessageDecoder.MALFORMED);
    }

    @Test
    void twoFingerprintsAreMalformed() {
        writer.putFingerprint().putFingerprint();
        assertThat(decode()).isEqualTo(StunMessageDecoder.MALFORMED);
    }

    @Test
    void badFingerprintValueFailsVerification() {
        writer.putBytes(AttributeType.USERNAME, utf8("u")).putFingerprint();
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
        int crcAt = writer.length() - 1;
        buffer.putByte(crcAt, (byte) (buffer.getByte(crcAt) ^ 1));
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(verifier.fingerprintValid(decoder)).isFalse();
    }

    @Test
    void fingerprintCoversEveryByteBeforeIt() {
        writer.putBytes(AttributeType.USERNAME, utf8("user")).putFingerprint();
        for (int i = 0; i < writer.length() - 8; i++) {
            if (i == 7) {
                continue; // flipping the cookie makes it NOT_STUN instead
            }
            buffer.putByte(i, (byte) (buffer.getByte(i) ^ 0x01));
            if (decode() == StunMessageDecoder.OK) {
                assertThat(verifier.fingerprintValid(decoder))
                        .as("flip at %d", i)
                        .isFalse();
            }
            buffer.putByte(i, (byte) (buffer.getByte(i) ^ 0x01));
        }
    }

    @Test
    void fingerprintOfWrongLengthFailsVerification() {
        appendRaw(AttributeType.FINGERPRINT, 8, 8);
        assertThat(decoder.decode(buffer, 0, rawLength())).isEqualTo(StunMessageDecoder.OK);
        assertThat(verifier.fingerprintValid(decoder)).isFalse();
    }

    @Test
    void messageWithoutFingerprintPassesVerifier() {
        writer.putInt(AttributeType.LIFETIME, 1);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(-1);
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }

    @Test
    void attributesAfterIntegrityAreIgnoredExceptSha256AndFingerprint() {
        writer.putBytes(AttributeType.USERNAME, utf8("alice"))
                .putMessageIntegrity(KEY)
                .putInt(AttributeType.LIFETIME, 0)
                .putBytes(AttributeType.USERNAME, utf8("mallory"))
                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, TransportAddress.parse("10.0.0.1", 1))
                .putInt(0x7ABC, 0)
                .putMessageIntegrity(KEY)
                .putMessageIntegritySha256(KEY)
                .putFingerprint();
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.has(AttributeType.LIFETIME)).isFalse();
        byte[] username = new byte[5];
        assertThat(decoder.copyValue(AttributeType.USERNAME, username)).isEqualTo(5);
        assertThat(username).isEqualTo(utf8("alice"));
        assertThat(decoder.peerAddressCount()).isZero();
        assertThat(decoder.has(AttributeType.XOR_PEER_ADDRESS)).isFalse();
        assertThat(decoder.unknownRequiredCount()).isZero();
        assertThat(decoder.integrityAttributeOffset()).isEqualTo(32);
        assertThat(decoder.integritySha256AttributeOffset()).isPositive();
        assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(writer.length() - 8);
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), KEY))
                .isTrue();
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }

    @Test
    void integrityAfterSha256IsIgnored() {
        // RFC 8489 §14.6: MESSAGE-INTEGRITY after MESSAGE-INTEGRITY-SHA256 must be ignored.
        writer.putMessageIntegritySha256(KEY).putMessageIntegrity(KEY).putInt(AttributeType.LIFETIME, 9);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.integritySha256AttributeOffset()).isEqualTo(20);
        assertThat(decoder.integrityAttributeOffset()).isEqualTo(-1);
        assertThat(decoder.has(AttributeType.MESSAGE_INTEGRITY)).isFalse();
        assertThat(decoder.has(AttributeType.LIFETIME)).isFalse();
    }

    @Test
    void firstOccurrenceWins() {
        writer.putInt(AttributeType.LIFETIME, 1).putInt(AttributeType.LIFETIME, 2);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(1);
    }

    @Test
    void unknownComprehensionRequiredAttributesAreCollectedOnceEach() {
        writer.putInt(0x7001, 0)
                .putInt(0x0030, 0)
                .putInt(0x7001, 0)
                .putInt(0x0030, 0)
                .putInt(0x0031, 0);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.unknownRequiredCount()).isEqualTo(3);
        assertThat(decoder.unknownRequiredType(0)).isEqualTo(0x7001);
        assertThat(decoder.unknownRequiredType(1)).isEqualTo(0x0030);
        assertThat(decoder.unknownRequiredType(2)).isEqualTo(0x0031);
    }

    @Test
    void unknownComprehensionRequiredAttributesAreBounded() {
        for (int i = 0; i < 3 * StunMessageDecoder.MAX_UNKNOWN; i++) {
            writer.putEmpty(0x7000 + i);
        }
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.unknownRequiredCount()).isEqualTo(StunMessageDecoder.MAX_UNKNOWN);
        for (int i = 0; i < StunMessageDecoder.MAX_UNKNOWN; i++) {
            assertThat(decoder.unknownRequiredType(i)).isEqualTo(0x7000 + i);
        }
    }

    @Test
    void unknownComprehensionOptionalAttributesAreIgnored() {
        writer.putInt(0x8029, 0).putBytes(0xC001, new byte[7]).putEmpty(0xFFFF).putInt(AttributeType.LIFETIME, 5);
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.unknownRequiredCount()).isZero();
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(5);
        assertThat(decoder.has(0x8029)).isFalse();
        assertThat(decoder.valueOffset(0x8029)).isEqualTo(-1);
        assertThat(decoder.valueLength(0x8029)).isZero();
    }

    @Test
    void morePeerAddressesThanIndexedAreCountedButBounded() {
        int total = StunMessageDecoder.MAX_PEER_ADDRESSES + 5;
        for (int i = 0; i < total; i++) {
            writer.putXorAddress(AttributeType.XOR_PEER_ADDRESS, TransportAddress.parse("10.0.0." + i, 1000 + i));
        }
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.peerAddressCount()).isEqualTo(total);
        TransportAddress out = new TransportAddress();
        for (int i = 0; i < StunMessageDecoder.MAX_PEER_ADDRESSES; i++) {
            assertThat(io.tern.stun.attribute.AddressAttribute.decodeXor(
                            buffer, 0, decoder.peerAddressOffset(i), decoder.peerAddressLength(i), out, new byte[16]))
                    .isTrue();
            assertThat(out).isEqualTo(TransportAddress.parse("10.0.0." + i, 1000 + i));
        }
    }

    @Test
    void decoderResetsBetweenMessages() {
        writer.putInt(AttributeType.LIFETIME, 1)
                .putInt(0x7001, 0)
                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, TransportAddress.parse("10.0.0.1", 1))
                .putMessageIntegrity(KEY)
                .putFingerprint();
        assertThat(decode()).isEqualTo(StunMessageDecoder.OK);
        UnsafeBuffer other = bufferOf(hex("00010000 2112a442 000000000000000000000000"));
        assertThat(decoder.decode(other, 0, 20)).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.has(AttributeType.LIFETIME)).isFalse();
        assertThat(decoder.unknownRequiredCount()).isZero();
        assertThat(decoder.peerAddressCount()).isZero();
        assertThat(decoder.integrityAttributeOffset()).isEqualTo(-1);
        assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(-1);
    }

    @Test
    void decodesAtAnOffset() {
        UnsafeBuffer big = new UnsafeBuffer(new byte[512]);
        big.setMemory(0, 512, (byte) 0x5A);
        writer.start(big, 101, StunClass.messageType(StunMethod.REFRESH, StunClass.REQUEST), 7, 8L)
                .putInt(AttributeType.LIFETIME, 0)
                .putMessageIntegrity(KEY)
                .putFingerprint();
        assertThat(decoder.decode(big, 101, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.offset()).isEqualTo(101);
        assertThat(decoder.method()).isEqualTo(StunMethod.REFRESH);
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isZero();
        assertThat(integrity.verify(big, 101, decoder.integrityAttributeOffset(), KEY))
                .isTrue();
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }
}
