package io.tern.stun.message;

import static io.tern.stun.TestBytes.MAX_MESSAGE_BYTES;
import static io.tern.stun.TestBytes.bufferOf;
import static io.tern.stun.TestBytes.bytesOf;
import static io.tern.stun.TestBytes.hex;
import static io.tern.stun.TestBytes.toHex;
import static io.tern.stun.TestBytes.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import java.text.Normalizer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The test vectors of RFC 5769 §2.1-2.4 and RFC 8489 Appendix B.1, byte for byte.
 *
 * <p>The vectors of §2.1-2.3 pad with spaces (0x20), as RFC 5389 allowed; RFC 8489 §14 requires
 * senders to pad with zeros, which is what {@link StunMessageWriter} does. To reproduce those
 * vectors the tests overwrite the padding bytes, as an RFC 5389 sender would have written them,
 * before the writer appends MESSAGE-INTEGRITY and FINGERPRINT over them.
 */
class Rfc5769VectorsTest {
    private static final int PRIORITY = 0x0024;
    private static final int ICE_CONTROLLED = 0x8029;

    static final byte[] SAMPLE_REQUEST = hex("""
            00010058 2112a442 b7e7a701 bc34d686 fa87dfae
            80220010 5354554e 20746573 7420636c 69656e74
            00240004 6e0001ff
            80290008 932ff9b1 51263b36
            00060009 6576746a 3a683676 59202020
            00080014 9aeaa70c bfd8cb56 781ef2b5 b2d3f249 c1b571a2
            80280004 e57a3bcf
            """);

    static final byte[] SAMPLE_IPV4_RESPONSE = hex("""
            0101003c 2112a442 b7e7a701 bc34d686 fa87dfae
            8022000b 74657374 20766563 746f7220
            00200008 0001a147 e112a643
            00080014 2b91f599 fd9e90c3 8c7489f9 2af9ba53 f06be7d7
            80280004 c07d4c96
            """);

    static final byte[] SAMPLE_IPV6_RESPONSE = hex("""
            01010048 2112a442 b7e7a701 bc34d686 fa87dfae
            8022000b 74657374 20766563 746f7220
            00200014 0002a147 0113a9fa a5d3f179 bc25f4b5 bed2b9d9
            00080014 a382954e 4be67bf1 1784c97c 8292c275 bfe3ed41
            80280004 c8fb0b4c
            """);

    static final byte[] SAMPLE_LONG_TERM_REQUEST = hex("""
            00010060 2112a442 78ad3433 c6ad72c0 29da412e
            00060012 e3839ee3 8388e383 aae38383 e382afe3 82b90000
            0015001c 662f2f34 39396b39 35346436 4f4c3334 6f4c3946 53547679 36347341
            0014000b 6578616d 706c652e 6f726700
            00080014 f6702465 6dd64a3e 02b8e071 2e85c9a2 8ca89666
            """);

    /** RFC 8489 Appendix B.1 with the NONCE length of errata 6268 (0x29, 41 bytes). */
    static final byte[] SAMPLE_SHA256_USERHASH_REQUEST = hex("""
            00010090 2112a442 78ad3433 c6ad72c0 29da412e
            001e0020 4a3cf38f ef6992bd a952c678 0417da0f 24819415 569e60b2 05c46e41 407f1704
            00150029 6f624d61 744a6f73 32414141 43662f2f 3439396b 39353464 364f4c33 346f4c39
                     46535476 79363473 41000000
            0014000b 6578616d 706c652e 6f726700
            001d0004 00020000
            001c0020 b5c7bf00 5b6c52a2 1c51c5e8 92f81924 136296cb 927c4314 9309278c c6518e65
            """);

    private static final byte[] SHORT_TERM_PASSWORD = utf8("VOkJxbRl1RmTxUk/WvJxBt");
    private static final int TID_HIGH_SHORT = 0xb7e7a701;
    private static final long TID_LOW_SHORT = 0xbc34d686fa87dfaeL;
    private static final int TID_HIGH_LONG = 0x78ad3433;
    private static final long TID_LOW_LONG = 0xc6ad72c029da412eL;
    /** "マトリックス", which SASLprep and OpaqueString leave unchanged. */
    private static final String USERNAME = "\u30DE\u30C8\u30EA\u30C3\u30AF\u30B9";
    /** The password as given before SASLprep; "TheMatrIX" after it. */
    private static final String RAW_PASSWORD = "The\u00ADM\u00AAtr\u2168";

    private static final String REALM = "example.org";

    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final Fingerprint fingerprint = new Fingerprint(MAX_MESSAGE_BYTES);
    private final StunVerifier verifier = new StunVerifier(new Fingerprint(MAX_MESSAGE_BYTES));
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final StunMessageWriter writer = new StunMessageWriter(integrity, fingerprint);
    private final TransportAddress address = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    /**
     * The parts of SASLprep (RFC 4013) these vectors exercise: map U+00AD (soft hyphen) to nothing,
     * then NFKC. Enough to show where "TheMatrIX" comes from; not a SASLprep implementation.
     */
    private static String saslPrepForVectors(String s) {
        return Normalizer.normalize(s.replace("\u00AD", ""), Normalizer.Form.NFKC);
    }

    private int decode(UnsafeBuffer buffer, int length) {
        return decoder.decode(buffer, 0, length);
    }

    private byte[] value(int type) {
        byte[] out = new byte[decoder.valueLength(type)];
        assertThat(decoder.copyValue(type, out)).isEqualTo(out.length);
        return out;
    }

    private byte[] written() {
        return bytesOf((UnsafeBuffer) writer.buffer(), writer.offset(), writer.length());
    }

    /**
     * The sample responses after their header, as the RFC's sender wrote them: SOFTWARE "test vector"
     * with a space as its padding byte, XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY, FINGERPRINT.
     */
    private void finishSampleResponse(TransportAddress mapped) {
        writer.putBytes(AttributeType.SOFTWARE, utf8("test vector"));
        writer.buffer().putByte(writer.offset() + writer.length() - 1, (byte) 0x20);
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, mapped)
                .putMessageIntegrity(SHORT_TERM_PASSWORD)
                .putFingerprint();
    }

    @Nested
    class SampleRequest {
        @Test
        void decodesHeaderAndAttributes() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_REQUEST);
            assertThat(decode(buffer, SAMPLE_REQUEST.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(decoder.method()).isEqualTo(StunMethod.BINDING);
            assertThat(decoder.messageClass()).isEqualTo(StunClass.REQUEST);
            assertThat(decoder.header().bodyLength()).isEqualTo(0x58);
            assertThat(decoder.header().transactionIdHigh()).isEqualTo(TID_HIGH_SHORT);
            assertThat(decoder.header().transactionIdLow()).isEqualTo(TID_LOW_SHORT);
            assertThat(value(AttributeType.SOFTWARE)).isEqualTo(utf8("STUN test client"));
            assertThat(value(AttributeType.USERNAME)).isEqualTo(utf8("evtj:h6vY"));
            assertThat(decoder.integrityAttributeOffset()).isEqualTo(76);
            assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(100);
            assertThat(decoder.integritySha256AttributeOffset()).isEqualTo(-1);
        }

        @Test
        void iceAttributesAreUnknownToTern() {
            // PRIORITY (0x0024) is comprehension-required and not a TURN attribute; ICE-CONTROLLED
            // (0x8029) is comprehension-optional and silently skipped.
            decode(bufferOf(SAMPLE_REQUEST), SAMPLE_REQUEST.length);
            assertThat(decoder.unknownRequiredCount()).isEqualTo(1);
            assertThat(decoder.unknownRequiredType(0)).isEqualTo(PRIORITY);
        }

        @Test
        void integrityVerifiesWithShortTermPasswordOnly() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_REQUEST);
            decode(buffer, SAMPLE_REQUEST.length);
            int mi = decoder.integrityAttributeOffset();
            assertThat(integrity.verify(buffer, 0, mi, SHORT_TERM_PASSWORD)).isTrue();
            assertThat(integrity.verify(buffer, 0, mi, utf8("VOkJxbRl1RmTxUk/WvJxBT")))
                    .isFalse();
            assertThat(verifier.fingerprintValid(decoder)).isTrue();
        }

        @Test
        void reEncodesByteForByteWithRfc5389SpacePadding() {
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                            out,
                            0,
                            StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST),
                            TID_HIGH_SHORT,
                            TID_LOW_SHORT)
                    .putBytes(AttributeType.SOFTWARE, utf8("STUN test client"))
                    .putInt(PRIORITY, 0x6e0001ff)
                    .putBytes(ICE_CONTROLLED, hex("932ff9b151263b36"))
                    .putBytes(AttributeType.USERNAME, utf8("evtj:h6vY"));
            out.setMemory(writer.length() - 3, 3, (byte) 0x20);
            writer.putMessageIntegrity(SHORT_TERM_PASSWORD).putFingerprint();
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_REQUEST));
        }

        @Test
        void zeroPaddedReEncodingDiffersOnlyInPaddingIntegrityAndFingerprint() {
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                            out,
                            0,
                            StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST),
                            TID_HIGH_SHORT,
                            TID_LOW_SHORT)
                    .putBytes(AttributeType.SOFTWARE, utf8("STUN test client"))
                    .putInt(PRIORITY, 0x6e0001ff)
                    .putBytes(ICE_CONTROLLED, hex("932ff9b151263b36"))
                    .putBytes(AttributeType.USERNAME, utf8("evtj:h6vY"))
                    .putMessageIntegrity(SHORT_TERM_PASSWORD)
                    .putFingerprint();
            byte[] ours = written();
            assertThat(ours).hasSameSizeAs(SAMPLE_REQUEST);
            for (int i = 0; i < ours.length; i++) {
                boolean mayDiffer = (i >= 73 && i < 76) || (i >= 80 && i < 100) || i >= 104;
                if (!mayDiffer) {
                    assertThat(ours[i]).as("byte %d", i).isEqualTo(SAMPLE_REQUEST[i]);
                }
            }
            assertThat(ours[73]).isZero();
            assertThat(decode(out, ours.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(integrity.verify(out, 0, decoder.integrityAttributeOffset(), SHORT_TERM_PASSWORD))
                    .isTrue();
            assertThat(verifier.fingerprintValid(decoder)).isTrue();
        }
    }

    @Nested
    class SampleIpv4Response {
        @Test
        void decodesXorMappedAddressAndVerifies() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_IPV4_RESPONSE);
            assertThat(decode(buffer, SAMPLE_IPV4_RESPONSE.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(decoder.method()).isEqualTo(StunMethod.BINDING);
            assertThat(decoder.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
            assertThat(decoder.unknownRequiredCount()).isZero();
            assertThat(value(AttributeType.SOFTWARE)).isEqualTo(utf8("test vector"));
            assertThat(AddressAttribute.decodeXor(
                            buffer,
                            0,
                            decoder.valueOffset(AttributeType.XOR_MAPPED_ADDRESS),
                            decoder.valueLength(AttributeType.XOR_MAPPED_ADDRESS),
                            address,
                            scratch16))
                    .isTrue();
            assertThat(address).isEqualTo(TransportAddress.parse("192.0.2.1", 32853));
            assertThat(address.ipv4()).isEqualTo(0xC0000201);
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), SHORT_TERM_PASSWORD))
                    .isTrue();
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), utf8("wrong")))
                    .isFalse();
            assertThat(verifier.fingerprintValid(decoder)).isTrue();
        }

        @Test
        void reEncodesByteForByte() {
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                    out,
                    0,
                    StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE),
                    TID_HIGH_SHORT,
                    TID_LOW_SHORT);
            finishSampleResponse(TransportAddress.parse("192.0.2.1", 32853));
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_IPV4_RESPONSE));
        }

        @Test
        void startResponseCopiesTransactionIdOfRequest() {
            UnsafeBuffer request = bufferOf(SAMPLE_REQUEST);
            decode(request, SAMPLE_REQUEST.length);
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.startResponse(
                    out, 0, StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE), decoder.header());
            finishSampleResponse(TransportAddress.parse("192.0.2.1", 32853));
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_IPV4_RESPONSE));
        }
    }

    @Nested
    class SampleIpv6Response {
        @Test
        void decodesXorMappedAddressAndVerifies() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_IPV6_RESPONSE);
            assertThat(decode(buffer, SAMPLE_IPV6_RESPONSE.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(decoder.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
            assertThat(decoder.valueLength(AttributeType.XOR_MAPPED_ADDRESS))
                    .isEqualTo(AddressAttribute.IPV6_VALUE_LENGTH);
            assertThat(AddressAttribute.decodeXor(
                            buffer,
                            0,
                            decoder.valueOffset(AttributeType.XOR_MAPPED_ADDRESS),
                            decoder.valueLength(AttributeType.XOR_MAPPED_ADDRESS),
                            address,
                            scratch16))
                    .isTrue();
            assertThat(address.isIpv4()).isFalse();
            assertThat(address.ipv6Bytes()).isEqualTo(hex("20010db8 12345678 00112233 44556677"));
            assertThat(address.port()).isEqualTo(32853);
            assertThat(address).isEqualTo(TransportAddress.parse("2001:db8:1234:5678:11:2233:4455:6677", 32853));
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), SHORT_TERM_PASSWORD))
                    .isTrue();
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), new byte[] {1}))
                    .isFalse();
            assertThat(verifier.fingerprintValid(decoder)).isTrue();
        }

        @Test
        void reEncodesByteForByte() {
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                    out,
                    0,
                    StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE),
                    TID_HIGH_SHORT,
                    TID_LOW_SHORT);
            finishSampleResponse(TransportAddress.parse("2001:db8:1234:5678:11:2233:4455:6677", 32853));
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_IPV6_RESPONSE));
        }

        @Test
        void reEncodesAtNonZeroOffset() {
            // The IPv6 XOR key is read from the header at the message offset, not at 0.
            UnsafeBuffer out = new UnsafeBuffer(new byte[300]);
            int at = 37;
            writer.start(
                    out,
                    at,
                    StunClass.messageType(StunMethod.BINDING, StunClass.SUCCESS_RESPONSE),
                    TID_HIGH_SHORT,
                    TID_LOW_SHORT);
            finishSampleResponse(TransportAddress.parse("2001:db8:1234:5678:11:2233:4455:6677", 32853));
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_IPV6_RESPONSE));
            assertThat(decoder.decode(out, at, writer.length())).isEqualTo(StunMessageDecoder.OK);
            assertThat(integrity.verify(out, at, decoder.integrityAttributeOffset(), SHORT_TERM_PASSWORD))
                    .isTrue();
            assertThat(verifier.fingerprintValid(decoder)).isTrue();
            assertThat(AddressAttribute.decodeXor(
                            out,
                            at,
                            decoder.valueOffset(AttributeType.XOR_MAPPED_ADDRESS),
                            decoder.valueLength(AttributeType.XOR_MAPPED_ADDRESS),
                            address,
                            scratch16))
                    .isTrue();
            assertThat(address).isEqualTo(TransportAddress.parse("2001:db8:1234:5678:11:2233:4455:6677", 32853));
        }
    }

    @Nested
    class SampleLongTermRequest {
        @Test
        void credentialsAreInSaslPrepForm() {
            assertThat(saslPrepForVectors(USERNAME)).isEqualTo(USERNAME);
            assertThat(saslPrepForVectors(RAW_PASSWORD)).isEqualTo("TheMatrIX");
            assertThat(utf8(USERNAME)).isEqualTo(hex("e3839ee3 8388e383 aae38383 e382afe3 82b9"));
        }

        @Test
        void decodesAndVerifiesWithMd5LongTermKey() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_LONG_TERM_REQUEST);
            assertThat(decode(buffer, SAMPLE_LONG_TERM_REQUEST.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(decoder.method()).isEqualTo(StunMethod.BINDING);
            assertThat(decoder.messageClass()).isEqualTo(StunClass.REQUEST);
            assertThat(decoder.header().transactionIdHigh()).isEqualTo(TID_HIGH_LONG);
            assertThat(decoder.header().transactionIdLow()).isEqualTo(TID_LOW_LONG);
            assertThat(value(AttributeType.USERNAME)).isEqualTo(utf8(USERNAME));
            assertThat(value(AttributeType.NONCE)).isEqualTo(utf8("f//499k954d6OL34oL9FSTvy64sA"));
            assertThat(value(AttributeType.REALM)).isEqualTo(utf8(REALM));
            assertThat(decoder.unknownRequiredCount()).isZero();
            assertThat(decoder.fingerprintAttributeOffset()).isEqualTo(-1);
            assertThat(verifier.fingerprintValid(decoder)).isTrue();

            byte[] key = MessageIntegrity.longTermKeyMd5(
                    utf8(USERNAME), utf8(REALM), utf8(saslPrepForVectors(RAW_PASSWORD)));
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), key))
                    .isTrue();
            byte[] unprepped = MessageIntegrity.longTermKeyMd5(utf8(USERNAME), utf8(REALM), utf8(RAW_PASSWORD));
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), unprepped))
                    .isFalse();
            byte[] shortTerm = utf8("TheMatrIX");
            assertThat(integrity.verify(buffer, 0, decoder.integrityAttributeOffset(), shortTerm))
                    .isFalse();
        }

        @Test
        void reEncodesByteForByte() {
            byte[] key = MessageIntegrity.longTermKeyMd5(utf8(USERNAME), utf8(REALM), utf8("TheMatrIX"));
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                            out,
                            0,
                            StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST),
                            TID_HIGH_LONG,
                            TID_LOW_LONG)
                    .putBytes(AttributeType.USERNAME, utf8(USERNAME))
                    .putBytes(AttributeType.NONCE, utf8("f//499k954d6OL34oL9FSTvy64sA"))
                    .putBytes(AttributeType.REALM, utf8(REALM))
                    .putMessageIntegrity(key);
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_LONG_TERM_REQUEST));
        }
    }

    @Nested
    class Rfc8489SampleSha256Request {
        private static final String NONCE = "obMatJos2AAACf//499k954d6OL34oL9FSTvy64sA";

        @Test
        void decodesUserHashAndPasswordAlgorithm() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_SHA256_USERHASH_REQUEST);
            assertThat(decode(buffer, SAMPLE_SHA256_USERHASH_REQUEST.length)).isEqualTo(StunMessageDecoder.OK);
            assertThat(value(AttributeType.USERHASH)).isEqualTo(MessageIntegrity.userHash(utf8(USERNAME), utf8(REALM)));
            assertThat(value(AttributeType.NONCE)).isEqualTo(utf8(NONCE));
            assertThat(value(AttributeType.REALM)).isEqualTo(utf8(REALM));
            assertThat(decoder.intValue(AttributeType.PASSWORD_ALGORITHM, -1)).isEqualTo(0x0002_0000);
            assertThat(decoder.has(AttributeType.USERNAME)).isFalse();
            assertThat(decoder.integrityAttributeOffset()).isEqualTo(-1);
            assertThat(decoder.integritySha256AttributeOffset()).isEqualTo(128);
            assertThat(decoder.valueLength(AttributeType.MESSAGE_INTEGRITY_SHA256))
                    .isEqualTo(32);
            assertThat(decoder.unknownRequiredCount()).isZero();
        }

        @Test
        void integritySha256VerifiesWithSha256LongTermKey() {
            UnsafeBuffer buffer = bufferOf(SAMPLE_SHA256_USERHASH_REQUEST);
            decode(buffer, SAMPLE_SHA256_USERHASH_REQUEST.length);
            int mi = decoder.integritySha256AttributeOffset();
            byte[] sha256Key = MessageIntegrity.longTermKeySha256(utf8(USERNAME), utf8(REALM), utf8("TheMatrIX"));
            byte[] md5Key = MessageIntegrity.longTermKeyMd5(utf8(USERNAME), utf8(REALM), utf8("TheMatrIX"));
            assertThat(sha256Key).hasSize(32);
            assertThat(integrity.verify(buffer, 0, mi, sha256Key)).isTrue();
            assertThat(integrity.verify(buffer, 0, mi, md5Key)).isFalse();
        }

        @Test
        void reEncodesByteForByte() {
            byte[] key = MessageIntegrity.longTermKeySha256(utf8(USERNAME), utf8(REALM), utf8("TheMatrIX"));
            UnsafeBuffer out = new UnsafeBuffer(new byte[256]);
            writer.start(
                            out,
                            0,
                            StunClass.messageType(StunMethod.BINDING, StunClass.REQUEST),
                            TID_HIGH_LONG,
                            TID_LOW_LONG)
                    .putBytes(AttributeType.USERHASH, MessageIntegrity.userHash(utf8(USERNAME), utf8(REALM)))
                    .putBytes(AttributeType.NONCE, utf8(NONCE))
                    .putBytes(AttributeType.REALM, utf8(REALM))
                    .putInt(AttributeType.PASSWORD_ALGORITHM, 0x0002_0000)
                    .putMessageIntegritySha256(key);
            assertThat(toHex(written())).isEqualTo(toHex(SAMPLE_SHA256_USERHASH_REQUEST));
        }
    }
}
