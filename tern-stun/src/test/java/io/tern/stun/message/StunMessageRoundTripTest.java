package io.tern.stun.message;

import static io.tern.stun.TestBytes.MAX_MESSAGE_BYTES;
import static io.tern.stun.TestBytes.hex;
import static io.tern.stun.TestBytes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writer to decoder, one attribute kind at a time. */
class StunMessageRoundTripTest {
    private static final int TID_HIGH = 0x01020304;
    private static final long TID_LOW = 0x05060708090A0B0CL;
    private static final byte[] KEY = utf8("secret");

    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final StunMessageWriter writer = new StunMessageWriter(integrity, new Fingerprint(MAX_MESSAGE_BYTES));
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final StunVerifier verifier = new StunVerifier(new Fingerprint(MAX_MESSAGE_BYTES));
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    private final TransportAddress address = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    @BeforeEach
    void start() {
        // Dirty the buffer so that unwritten padding would show.
        buffer.setMemory(0, buffer.capacity(), (byte) 0xEE);
        writer.start(buffer, 0, StunClass.messageType(StunMethod.ALLOCATE, StunClass.REQUEST), TID_HIGH, TID_LOW);
    }

    private void decodeOk() {
        assertThat(decoder.decode(buffer, 0, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.header().transactionIdHigh()).isEqualTo(TID_HIGH);
        assertThat(decoder.header().transactionIdLow()).isEqualTo(TID_LOW);
        assertThat(decoder.method()).isEqualTo(StunMethod.ALLOCATE);
        assertThat(decoder.messageClass()).isEqualTo(StunClass.REQUEST);
        assertThat(decoder.header().magicCookie()).isEqualTo(StunHeaderFlyweight.MAGIC_COOKIE);
        assertThat(writer.length() % 4).isZero();
    }

    private byte[] value(int type) {
        byte[] out = new byte[decoder.valueLength(type)];
        assertThat(decoder.copyValue(type, out)).isEqualTo(out.length);
        return out;
    }

    private TransportAddress xorAddress(int type) {
        assertThat(AddressAttribute.decodeXor(
                        buffer, 0, decoder.valueOffset(type), decoder.valueLength(type), address, scratch16))
                .isTrue();
        return address;
    }

    @Test
    void emptyMessageIsJustAHeader() {
        assertThat(writer.length()).isEqualTo(StunHeaderFlyweight.HEADER_LENGTH);
        decodeOk();
        assertThat(decoder.header().bodyLength()).isZero();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "192.0.2.1",
                "0.0.0.0",
                "255.255.255.255",
                "10.0.0.1",
                "2001:db8::1",
                "::1",
                "fe80::1234:5678:9abc:def0",
                "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
            })
    void xorAddresses(String host) {
        TransportAddress mapped = TransportAddress.parse(host, 3478);
        TransportAddress relayed = TransportAddress.parse(host, 0);
        TransportAddress peer = TransportAddress.parse(host, 65535);
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, mapped)
                .putXorAddress(AttributeType.XOR_RELAYED_ADDRESS, relayed)
                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer)
                .putAddress(AttributeType.MAPPED_ADDRESS, mapped);
        decodeOk();
        int expectedLength = mapped.isIpv4() ? AddressAttribute.IPV4_VALUE_LENGTH : AddressAttribute.IPV6_VALUE_LENGTH;
        assertThat(decoder.valueLength(AttributeType.XOR_MAPPED_ADDRESS)).isEqualTo(expectedLength);
        assertThat(xorAddress(AttributeType.XOR_MAPPED_ADDRESS)).isEqualTo(mapped);
        assertThat(xorAddress(AttributeType.XOR_RELAYED_ADDRESS)).isEqualTo(relayed);
        assertThat(xorAddress(AttributeType.XOR_PEER_ADDRESS)).isEqualTo(peer);
        assertThat(decoder.peerAddressCount()).isEqualTo(1);
        assertThat(decoder.peerAddressOffset(0)).isEqualTo(decoder.valueOffset(AttributeType.XOR_PEER_ADDRESS));
        assertThat(AddressAttribute.decodePlain(
                        buffer,
                        decoder.valueOffset(AttributeType.MAPPED_ADDRESS),
                        decoder.valueLength(AttributeType.MAPPED_ADDRESS),
                        address,
                        scratch16))
                .isTrue();
        assertThat(address).isEqualTo(mapped);
    }

    @Test
    void xorAddressIsActuallyXored() {
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, TransportAddress.parse("192.0.2.1", 32853))
                .putAddress(AttributeType.MAPPED_ADDRESS, TransportAddress.parse("192.0.2.1", 32853));
        decodeOk();
        int xorOffset = decoder.valueOffset(AttributeType.XOR_MAPPED_ADDRESS);
        int plainOffset = decoder.valueOffset(AttributeType.MAPPED_ADDRESS);
        assertThat(buffer.getInt(xorOffset, ByteOrder.BIG_ENDIAN)).isEqualTo(0x0001a147);
        assertThat(buffer.getInt(xorOffset + 4, ByteOrder.BIG_ENDIAN)).isEqualTo(0xe112a643);
        assertThat(buffer.getInt(plainOffset, ByteOrder.BIG_ENDIAN)).isEqualTo(0x00018055);
        assertThat(buffer.getInt(plainOffset + 4, ByteOrder.BIG_ENDIAN)).isEqualTo(0xC0000201);
    }

    @Test
    void addressWithBadFamilyOrLengthIsRejected() {
        writer.putBytes(AttributeType.XOR_PEER_ADDRESS, hex("0003a147e112a643"))
                .putBytes(AttributeType.XOR_MAPPED_ADDRESS, hex("0001a147e112a643ffffffff"))
                .putBytes(AttributeType.XOR_RELAYED_ADDRESS, hex("0002a147e112a643"))
                .putBytes(AttributeType.MAPPED_ADDRESS, hex("000180"));
        decodeOk();
        for (int type : new int[] {
            AttributeType.XOR_PEER_ADDRESS,
            AttributeType.XOR_MAPPED_ADDRESS,
            AttributeType.XOR_RELAYED_ADDRESS,
            AttributeType.MAPPED_ADDRESS
        }) {
            assertThat(AddressAttribute.decodeXor(
                            buffer, 0, decoder.valueOffset(type), decoder.valueLength(type), address, scratch16))
                    .as("type 0x%04x", type)
                    .isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 400, 401, 403, 420, 437, 438, 440, 441, 442, 443, 486, 500, 508})
    void errorCodeWithReason(int code) {
        writer.putErrorCode(code);
        decodeOk();
        int offset = decoder.valueOffset(AttributeType.ERROR_CODE);
        int length = decoder.valueLength(AttributeType.ERROR_CODE);
        assertThat(buffer.getShort(offset, ByteOrder.BIG_ENDIAN)).isZero();
        int decoded = (buffer.getByte(offset + 2) & 0x07) * 100 + (buffer.getByte(offset + 3) & 0xFF);
        assertThat(decoded).isEqualTo(code);
        byte[] reason = new byte[length - 4];
        buffer.getBytes(offset + 4, reason);
        assertThat(reason).isEqualTo(ErrorCode.reason(code));
        assertThat(new String(reason, StandardCharsets.UTF_8)).isNotBlank();
        assertThat(reason.length).isLessThanOrEqualTo(763);
        // Padding is zero.
        for (int i = length; i < ((length + 3) & ~3); i++) {
            assertThat(buffer.getByte(offset + i)).isZero();
        }
    }

    @Test
    void errorReasonPhrasesMatchRfcs() {
        assertThat(new String(ErrorCode.reason(ErrorCode.UNAUTHENTICATED), StandardCharsets.UTF_8))
                .isEqualTo("Unauthenticated");
        assertThat(new String(ErrorCode.reason(ErrorCode.STALE_NONCE), StandardCharsets.UTF_8))
                .isEqualTo("Stale Nonce");
        assertThat(new String(ErrorCode.reason(ErrorCode.ALLOCATION_MISMATCH), StandardCharsets.UTF_8))
                .isEqualTo("Allocation Mismatch");
        assertThat(new String(ErrorCode.reason(ErrorCode.INSUFFICIENT_CAPACITY), StandardCharsets.UTF_8))
                .isEqualTo("Insufficient Capacity");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 16})
    void unknownAttributes(int count) {
        int[] types = new int[count];
        for (int i = 0; i < count; i++) {
            types[i] = 0x7F00 + i;
        }
        writer.putUnknownAttributes(types, count);
        decodeOk();
        assertThat(decoder.valueLength(AttributeType.UNKNOWN_ATTRIBUTES)).isEqualTo(2 * count);
        int offset = decoder.valueOffset(AttributeType.UNKNOWN_ATTRIBUTES);
        for (int i = 0; i < count; i++) {
            assertThat(buffer.getShort(offset + 2 * i, ByteOrder.BIG_ENDIAN) & 0xFFFF)
                    .isEqualTo(types[i]);
        }
    }

    @Test
    void integerAttributes() {
        writer.putInt(AttributeType.LIFETIME, 600)
                .putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24)
                .putInt(AttributeType.CHANNEL_NUMBER, 0x4001 << 16)
                .putInt(AttributeType.REQUESTED_ADDRESS_FAMILY, 0x02 << 24);
        decodeOk();
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(600);
        assertThat(decoder.intValue(AttributeType.REQUESTED_TRANSPORT, -1) >>> 24)
                .isEqualTo(17);
        assertThat(decoder.intValue(AttributeType.CHANNEL_NUMBER, -1) >>> 16).isEqualTo(0x4001);
        assertThat(decoder.intValue(AttributeType.REQUESTED_ADDRESS_FAMILY, -1) >>> 24)
                .isEqualTo(2);
        assertThat(decoder.intValue(AttributeType.SOFTWARE, -7)).isEqualTo(-7);
    }

    @Test
    void intValueOfWrongLengthIsMissing() {
        writer.putBytes(AttributeType.LIFETIME, new byte[] {0, 0, 2});
        decodeOk();
        assertThat(decoder.has(AttributeType.LIFETIME)).isTrue();
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(-1);
    }

    @Test
    void evenPortReservationTokenAndFlags() {
        byte[] token = hex("0102030405060708");
        writer.putBytes(AttributeType.EVEN_PORT, new byte[] {(byte) 0x80})
                .putBytes(AttributeType.RESERVATION_TOKEN, token)
                .putEmpty(AttributeType.DONT_FRAGMENT);
        decodeOk();
        assertThat(value(AttributeType.EVEN_PORT)).containsExactly((byte) 0x80);
        // One byte of value, three of zero padding.
        assertThat(buffer.getByte(decoder.valueOffset(AttributeType.EVEN_PORT) + 1))
                .isZero();
        assertThat(buffer.getByte(decoder.valueOffset(AttributeType.EVEN_PORT) + 3))
                .isZero();
        assertThat(value(AttributeType.RESERVATION_TOKEN)).isEqualTo(token);
        assertThat(decoder.has(AttributeType.DONT_FRAGMENT)).isTrue();
        assertThat(decoder.valueLength(AttributeType.DONT_FRAGMENT)).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 100, 1201})
    void dataOfEveryPaddingLength(int length) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (i * 7 + 1);
        }
        writer.putBytes(AttributeType.DATA, data).putInt(AttributeType.LIFETIME, 1);
        decodeOk();
        assertThat(value(AttributeType.DATA)).isEqualTo(data);
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(1);
        for (int i = length; i < ((length + 3) & ~3); i++) {
            assertThat(buffer.getByte(decoder.valueOffset(AttributeType.DATA) + i))
                    .isZero();
        }
    }

    @Test
    void dataFromADirectBuffer() {
        UnsafeBuffer src = new UnsafeBuffer(hex("ffff00112233ffff"));
        writer.putBytes(AttributeType.DATA, src, 2, 4);
        decodeOk();
        assertThat(value(AttributeType.DATA)).isEqualTo(hex("00112233"));
    }

    @Test
    void textAttributes() {
        writer.putBytes(AttributeType.USERNAME, utf8("alice"))
                .putBytes(AttributeType.REALM, utf8("example.org"))
                .putBytes(AttributeType.NONCE, utf8("obMatJos2AAACf//499k954d6OL34oL9FSTvy64sA"))
                .putBytes(AttributeType.SOFTWARE, utf8("Tern \u00e9"));
        decodeOk();
        assertThat(value(AttributeType.USERNAME)).isEqualTo(utf8("alice"));
        assertThat(value(AttributeType.REALM)).isEqualTo(utf8("example.org"));
        assertThat(value(AttributeType.NONCE)).isEqualTo(utf8("obMatJos2AAACf//499k954d6OL34oL9FSTvy64sA"));
        assertThat(value(AttributeType.SOFTWARE)).isEqualTo(utf8("Tern \u00e9"));
        assertThat(decoder.copyValue(AttributeType.NONCE, new byte[3])).isEqualTo(-1);
        assertThat(decoder.copyValue(AttributeType.DATA, new byte[30])).isEqualTo(-1);
    }

    @Test
    void integrityAndFingerprint() {
        writer.putBytes(AttributeType.USERNAME, utf8("alice"))
                .putInt(AttributeType.LIFETIME, 600)
                .putMessageIntegrity(KEY)
                .putMessageIntegritySha256(KEY)
                .putFingerprint();
        decodeOk();
        assertThat(decoder.valueLength(AttributeType.MESSAGE_INTEGRITY)).isEqualTo(MessageIntegrity.SHA1_LENGTH);
        assertThat(decoder.valueLength(AttributeType.MESSAGE_INTEGRITY_SHA256))
                .isEqualTo(MessageIntegrity.SHA256_LENGTH);
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), KEY))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), utf8("Secret")))
                .isFalse();
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), utf8("Secret")))
                .isFalse();
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
        assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(writer.length() - 8);
    }

    @Test
    void sha256IntegrityAlone() {
        writer.putBytes(AttributeType.USERNAME, utf8("bob")).putMessageIntegritySha256(KEY);
        decodeOk();
        assertThat(decoder.integrityAttributeOffset()).isEqualTo(-1);
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), KEY))
                .isTrue();
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }

    @Test
    void everyAttributeKindTogether() {
        TransportAddress v4 = TransportAddress.parse("203.0.113.9", 50000);
        TransportAddress v6 = TransportAddress.parse("2001:db8::9", 50001);
        writer.putBytes(AttributeType.USERNAME, utf8("alice"))
                .putBytes(AttributeType.REALM, utf8("tern"))
                .putBytes(AttributeType.NONCE, utf8("n0nce"))
                .putBytes(AttributeType.SOFTWARE, utf8("tern"))
                .putInt(AttributeType.LIFETIME, 3600)
                .putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24)
                .putBytes(AttributeType.EVEN_PORT, new byte[] {0})
                .putBytes(AttributeType.RESERVATION_TOKEN, hex("1122334455667788"))
                .putBytes(AttributeType.DATA, hex("deadbeefca"))
                .putErrorCode(ErrorCode.UNKNOWN_ATTRIBUTE)
                .putUnknownAttributes(new int[] {0x7777}, 1)
                .putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, v4)
                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, v6)
                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, v4)
                .putXorAddress(AttributeType.XOR_RELAYED_ADDRESS, v6)
                .putMessageIntegrity(KEY)
                .putMessageIntegritySha256(KEY)
                .putFingerprint();
        decodeOk();
        assertThat(decoder.unknownRequiredCount()).isZero();
        assertThat(value(AttributeType.USERNAME)).isEqualTo(utf8("alice"));
        assertThat(decoder.intValue(AttributeType.LIFETIME, -1)).isEqualTo(3600);
        assertThat(value(AttributeType.DATA)).isEqualTo(hex("deadbeefca"));
        assertThat(xorAddress(AttributeType.XOR_MAPPED_ADDRESS)).isEqualTo(v4);
        assertThat(xorAddress(AttributeType.XOR_RELAYED_ADDRESS)).isEqualTo(v6);
        assertThat(decoder.peerAddressCount()).isEqualTo(2);
        assertThat(AddressAttribute.decodeXor(
                        buffer, 0, decoder.peerAddressOffset(1), decoder.peerAddressLength(1), address, scratch16))
                .isTrue();
        assertThat(address).isEqualTo(v4);
        assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), KEY))
                .isTrue();
        assertThat(integrity.verify(buffer, 0, decoder.integritySha256AttributeOffset(), KEY))
                .isTrue();
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }
}
