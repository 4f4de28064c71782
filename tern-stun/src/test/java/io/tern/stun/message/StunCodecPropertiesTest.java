package io.tern.stun.message;

import static io.tern.stun.TestBytes.MAX_MESSAGE_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzzing the decoder and everything that reads what it indexed: whatever the bytes, the answer is
 * OK, NOT_STUN or MALFORMED, nothing throws, and every recorded value lies inside the message.
 * Structured inputs come from a seed, so a failure names the seed that reproduces it.
 */
class StunCodecPropertiesTest {
    private static final int[] ALL_TYPES = {
        AttributeType.MAPPED_ADDRESS,
        AttributeType.USERNAME,
        AttributeType.MESSAGE_INTEGRITY,
        AttributeType.ERROR_CODE,
        AttributeType.UNKNOWN_ATTRIBUTES,
        AttributeType.CHANNEL_NUMBER,
        AttributeType.LIFETIME,
        AttributeType.XOR_PEER_ADDRESS,
        AttributeType.DATA,
        AttributeType.REALM,
        AttributeType.NONCE,
        AttributeType.XOR_RELAYED_ADDRESS,
        AttributeType.REQUESTED_ADDRESS_FAMILY,
        AttributeType.EVEN_PORT,
        AttributeType.REQUESTED_TRANSPORT,
        AttributeType.DONT_FRAGMENT,
        AttributeType.MESSAGE_INTEGRITY_SHA256,
        AttributeType.PASSWORD_ALGORITHM,
        AttributeType.USERHASH,
        AttributeType.XOR_MAPPED_ADDRESS,
        AttributeType.RESERVATION_TOKEN,
        AttributeType.PASSWORD_ALGORITHMS,
        AttributeType.ALTERNATE_DOMAIN,
        AttributeType.SOFTWARE,
        AttributeType.ALTERNATE_SERVER,
        AttributeType.FINGERPRINT,
        AttributeType.ADDITIONAL_ADDRESS_FAMILY,
        AttributeType.ADDRESS_ERROR_CODE,
        AttributeType.ICMP,
        AttributeType.RESPONSE_ORIGIN,
        AttributeType.OTHER_ADDRESS,
    };
    private static final int[] ADDRESS_TYPES = {
        AttributeType.MAPPED_ADDRESS, AttributeType.XOR_PEER_ADDRESS, AttributeType.XOR_RELAYED_ADDRESS,
        AttributeType.XOR_MAPPED_ADDRESS, AttributeType.ALTERNATE_SERVER, AttributeType.RESPONSE_ORIGIN,
        AttributeType.OTHER_ADDRESS,
    };
    /** Types the round trip writes as plain values; each at most once so that first-wins is moot. */
    private static final int[] VALUE_TYPES = {
        AttributeType.USERNAME,
        AttributeType.ERROR_CODE,
        AttributeType.UNKNOWN_ATTRIBUTES,
        AttributeType.CHANNEL_NUMBER,
        AttributeType.LIFETIME,
        AttributeType.DATA,
        AttributeType.REALM,
        AttributeType.NONCE,
        AttributeType.REQUESTED_ADDRESS_FAMILY,
        AttributeType.EVEN_PORT,
        AttributeType.REQUESTED_TRANSPORT,
        AttributeType.DONT_FRAGMENT,
        AttributeType.PASSWORD_ALGORITHM,
        AttributeType.USERHASH,
        AttributeType.RESERVATION_TOKEN,
        AttributeType.PASSWORD_ALGORITHMS,
        AttributeType.ALTERNATE_DOMAIN,
        AttributeType.SOFTWARE,
        AttributeType.ADDITIONAL_ADDRESS_FAMILY,
        AttributeType.ADDRESS_ERROR_CODE,
        AttributeType.ICMP,
    };

    private static final int[] XOR_TYPES = {
        AttributeType.XOR_MAPPED_ADDRESS, AttributeType.XOR_RELAYED_ADDRESS, AttributeType.XOR_PEER_ADDRESS,
    };
    private static final byte[] KEY = {1, 2, 3};

    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final StunMessageWriter writer = new StunMessageWriter(integrity, new Fingerprint(MAX_MESSAGE_BYTES));
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    /** Deliberately small: verification must cope with messages longer than its scratch. */
    private final MessageIntegrity smallIntegrity = new MessageIntegrity(64);

    private final StunVerifier verifier = new StunVerifier(new Fingerprint(64));
    private final TransportAddress address = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    // ---------------------------------------------------------------- inputs that must not hurt

    @Property(tries = 3000)
    void arbitraryBytes(@ForAll @Size(max = 256) byte[] bytes) {
        checkBounded(bytes, 0);
    }

    @Property(tries = 3000)
    void stunShapedBytes(@ForAll long seed) {
        Random random = new Random(seed);
        checkBounded(stunShaped(random), random.nextInt(8));
        Statistics.label("decode").coverage(c -> {
            c.check("OK").percentage(p -> p > 20);
            c.check("MALFORMED").percentage(p -> p > 5);
        });
    }

    @Property(tries = 3000)
    void mutatedValidMessages(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int mutations) {
        Random random = new Random(seed);
        byte[] bytes = validMessage(random);
        for (int i = 0; i < mutations; i++) {
            bytes = mutate(random, bytes);
        }
        checkBounded(bytes, random.nextInt(8));
        Statistics.label("decode").coverage(c -> {
            c.check("OK").percentage(p -> p > 5);
            c.check("MALFORMED").percentage(p -> p > 2);
            c.check("NOT_STUN").percentage(p -> p > 5);
        });
    }

    @Property(tries = 300)
    void mutatedRfcVectors(@ForAll long seed) {
        Random random = new Random(seed);
        byte[][] vectors = {
            Rfc5769VectorsTest.SAMPLE_REQUEST, Rfc5769VectorsTest.SAMPLE_IPV4_RESPONSE,
            Rfc5769VectorsTest.SAMPLE_IPV6_RESPONSE, Rfc5769VectorsTest.SAMPLE_LONG_TERM_REQUEST,
            Rfc5769VectorsTest.SAMPLE_SHA256_USERHASH_REQUEST,
        };
        byte[] bytes = vectors[random.nextInt(vectors.length)].clone();
        checkBounded(mutate(random, bytes), 0);
    }

    /** The message sits at {@code offset} in a buffer exactly as long as it needs, so any read past it throws. */
    private void checkBounded(byte[] message, int offset) {
        byte[] backing = new byte[offset + message.length];
        System.arraycopy(message, 0, backing, offset, message.length);
        UnsafeBuffer buffer = new UnsafeBuffer(backing);
        int length = message.length;
        int end = offset + length;

        int result = decoder.decode(buffer, offset, length);
        assertThat(result).isIn(StunMessageDecoder.OK, StunMessageDecoder.NOT_STUN, StunMessageDecoder.MALFORMED);
        Statistics.label("decode")
                .collect(
                        result == StunMessageDecoder.OK
                                ? "OK"
                                : result == StunMessageDecoder.NOT_STUN ? "NOT_STUN" : "MALFORMED");
        if (result != StunMessageDecoder.OK) {
            return;
        }
        assertThat(length).isGreaterThanOrEqualTo(StunHeaderFlyweight.HEADER_LENGTH);
        int bodyStart = offset + StunHeaderFlyweight.HEADER_LENGTH;
        for (int type : ALL_TYPES) {
            if (decoder.has(type)) {
                assertInside(decoder.valueOffset(type), decoder.valueLength(type), bodyStart, end);
            }
        }
        for (int type : ADDRESS_TYPES) {
            if (decoder.has(type)) {
                AddressAttribute.decodeXor(
                        buffer, offset, decoder.valueOffset(type), decoder.valueLength(type), address, scratch16);
                AddressAttribute.decodePlain(
                        buffer, decoder.valueOffset(type), decoder.valueLength(type), address, scratch16);
            }
        }
        int peers = Math.min(decoder.peerAddressCount(), StunMessageDecoder.MAX_PEER_ADDRESSES);
        for (int i = 0; i < peers; i++) {
            assertInside(decoder.peerAddressOffset(i), decoder.peerAddressLength(i), bodyStart, end);
            AddressAttribute.decodeXor(
                    buffer, offset, decoder.peerAddressOffset(i), decoder.peerAddressLength(i), address, scratch16);
        }
        assertThat(decoder.unknownRequiredCount()).isBetween(0, StunMessageDecoder.MAX_UNKNOWN);
        Set<Integer> unknown = new HashSet<>();
        for (int i = 0; i < decoder.unknownRequiredCount(); i++) {
            int type = decoder.unknownRequiredType(i);
            assertThat(type).isBetween(0, 0x7FFF);
            assertThat(unknown.add(type)).as("duplicate unknown 0x%04x", type).isTrue();
        }
        for (int attributeOffset : new int[] {
            decoder.integrityAttributeOffset(),
            decoder.integritySha256AttributeOffset(),
            decoder.fingerprintAttributeOffset()
        }) {
            if (attributeOffset >= 0) {
                int valueLength = buffer.getShort(attributeOffset + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF;
                assertInside(attributeOffset, 4 + valueLength, bodyStart, end);
            }
        }
        if (decoder.fingerprintAttributeOffset() >= 0) {
            int fingerprintEnd = decoder.fingerprintAttributeOffset()
                    + 4
                    + ((decoder.valueLength(AttributeType.FINGERPRINT) + 3) & ~3);
            assertThat(fingerprintEnd).as("FINGERPRINT is last").isEqualTo(end);
        }
        verifier.fingerprintValid(decoder);
        if (decoder.integrityAttributeOffset() >= 0) {
            smallIntegrity.verify(buffer, offset, decoder.integrityAttributeOffset(), KEY);
            smallIntegrity.verify(buffer, offset, decoder.integrityAttributeOffset(), new byte[0]);
        }
        if (decoder.integritySha256AttributeOffset() >= 0) {
            smallIntegrity.verify(buffer, offset, decoder.integritySha256AttributeOffset(), KEY);
        }
    }

    private static void assertInside(int valueOffset, int valueLength, int bodyStart, int end) {
        assertThat(valueOffset).isBetween(bodyStart, end);
        assertThat((long) valueOffset + valueLength).isLessThanOrEqualTo(end);
    }

    /** A header with the cookie and a run of attributes whose lengths sometimes lie. */
    private static byte[] stunShaped(Random random) {
        int capacity = 20 + random.nextInt(400) * 4 / 4;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[capacity + 64]);
        buffer.putShort(0, (short) random.nextInt(0x4000), ByteOrder.BIG_ENDIAN);
        buffer.putInt(4, StunHeaderFlyweight.MAGIC_COOKIE, ByteOrder.BIG_ENDIAN);
        for (int i = 8; i < 20; i++) {
            buffer.putByte(i, (byte) random.nextInt());
        }
        int position = 20;
        while (position + 4 <= capacity && random.nextInt(10) != 0) {
            int type = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0x10000);
                case 1 -> random.nextInt(0x40);
                default -> ALL_TYPES[random.nextInt(ALL_TYPES.length)];
            };
            int valueLength = switch (random.nextInt(6)) {
                case 0 -> random.nextInt(0x10000);
                case 1 -> 20;
                case 2 -> 4;
                case 3 -> 8;
                default -> random.nextInt(40);
            };
            buffer.putShort(position, (short) type, ByteOrder.BIG_ENDIAN);
            buffer.putShort(position + 2, (short) valueLength, ByteOrder.BIG_ENDIAN);
            int written = Math.min((valueLength + 3) & ~3, capacity - position - 4);
            for (int i = 0; i < written; i++) {
                buffer.putByte(position + 4 + i, (byte) random.nextInt());
            }
            if (written == 8 && random.nextBoolean()) {
                buffer.putByte(position + 5, (byte) (1 + random.nextInt(2))); // a plausible address family
            }
            position += 4 + written;
        }
        int length = random.nextInt(20) == 0 ? position + random.nextInt(4) : position;
        int bodyLength = random.nextInt(20) == 0 ? random.nextInt(0x10000) : length - 20;
        buffer.putShort(2, (short) bodyLength, ByteOrder.BIG_ENDIAN);
        byte[] out = new byte[length];
        buffer.getBytes(0, out);
        return out;
    }

    private byte[] validMessage(Random random) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
        writer.start(
                buffer,
                0,
                StunClass.messageType(random.nextInt(0x1000), StunClass.ERROR_RESPONSE & (random.nextInt() << 4)),
                random.nextInt(),
                random.nextLong());
        int attributes = random.nextInt(12);
        for (int i = 0; i < attributes; i++) {
            switch (random.nextInt(6)) {
                case 0 -> writer.putXorAddress(XOR_TYPES[random.nextInt(XOR_TYPES.length)], randomAddress(random));
                case 1 -> writer.putErrorCode(300 + random.nextInt(300));
                case 2 ->
                    writer.putUnknownAttributes(new int[] {random.nextInt(0x8000), 0x7FFF}, 1 + random.nextInt(2));
                case 3 -> writer.putInt(VALUE_TYPES[random.nextInt(VALUE_TYPES.length)], random.nextInt());
                case 4 -> writer.putInt(random.nextInt(0x10000), random.nextInt());
                default -> writer.putBytes(VALUE_TYPES[random.nextInt(VALUE_TYPES.length)], randomBytes(random, 50));
            }
        }
        if (random.nextBoolean()) {
            writer.putMessageIntegrity(KEY);
        }
        if (random.nextBoolean()) {
            writer.putMessageIntegritySha256(KEY);
        }
        if (random.nextBoolean()) {
            writer.putFingerprint();
        }
        byte[] out = new byte[writer.length()];
        buffer.getBytes(0, out);
        return out;
    }

    private static byte[] mutate(Random random, byte[] bytes) {
        if (bytes.length == 0) {
            return new byte[] {(byte) random.nextInt()};
        }
        byte[] out = bytes.clone();
        switch (random.nextInt(6)) {
            case 0 -> out[random.nextInt(out.length)] ^= (byte) (1 << random.nextInt(8));
            case 1 -> out = Arrays.copyOf(out, random.nextInt(out.length));
            case 2 -> {
                if (out.length >= 4) {
                    int bodyLength = random.nextBoolean()
                            ? random.nextInt(0x10000)
                            : out.length - 20 + 4 * (random.nextInt(5) - 2);
                    out[2] = (byte) (bodyLength >>> 8);
                    out[3] = (byte) bodyLength;
                }
            }
            case 3 -> {
                // Rewrite some attribute's length, keeping the header length consistent.
                int position = 20 + 4 * random.nextInt(Math.max(1, (out.length - 20) / 4));
                if (position + 4 <= out.length) {
                    int valueLength = random.nextBoolean() ? random.nextInt(0x10000) : random.nextInt(64);
                    out[position + 2] = (byte) (valueLength >>> 8);
                    out[position + 3] = (byte) valueLength;
                }
            }
            case 4 -> {
                // Append bytes and fix the length field, so the decoder reads into them.
                int extra = 4 * (1 + random.nextInt(8));
                out = Arrays.copyOf(out, out.length + extra);
                for (int i = out.length - extra; i < out.length; i++) {
                    out[i] = (byte) random.nextInt();
                }
                if (out.length >= 4) {
                    out[2] = (byte) ((out.length - 20) >>> 8);
                    out[3] = (byte) (out.length - 20);
                }
            }
            default -> {
                int position = 20 + 4 * random.nextInt(Math.max(1, (out.length - 20) / 4));
                if (position + 2 <= out.length) {
                    int type = ALL_TYPES[random.nextInt(ALL_TYPES.length)];
                    out[position] = (byte) (type >>> 8);
                    out[position + 1] = (byte) type;
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- round trip

    private record Written(int type, byte[] value, TransportAddress address) {}

    @Property(tries = 1000)
    void randomAttributeSetsRoundTrip(
            @ForAll long seed, @ForAll boolean withIntegrity, @ForAll boolean withFingerprint) {
        Random random = new Random(seed);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
        int messageOffset = random.nextInt(16);
        int method = random.nextInt(0x1000);
        int[] classes = {StunClass.REQUEST, StunClass.INDICATION, StunClass.SUCCESS_RESPONSE, StunClass.ERROR_RESPONSE};
        int messageClass = classes[random.nextInt(4)];
        int tidHigh = random.nextInt();
        long tidLow = random.nextLong();
        writer.start(buffer, messageOffset, StunClass.messageType(method, messageClass), tidHigh, tidLow);

        List<Written> expected = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        for (int type : VALUE_TYPES) {
            types.add(type);
        }
        for (int type : XOR_TYPES) {
            types.add(type);
        }
        java.util.Collections.shuffle(types, random);
        List<TransportAddress> peers = new ArrayList<>();
        for (int type : types.subList(0, random.nextInt(types.size() + 1))) {
            if (Arrays.stream(XOR_TYPES).anyMatch(t -> t == type)) {
                TransportAddress a = randomAddress(random);
                writer.putXorAddress(type, a);
                expected.add(new Written(type, null, a));
                if (type == AttributeType.XOR_PEER_ADDRESS) {
                    peers.add(a);
                    // More peers, as CreatePermission carries.
                    for (int extra = random.nextInt(4); extra > 0; extra--) {
                        TransportAddress more = randomAddress(random);
                        writer.putXorAddress(type, more);
                        peers.add(more);
                    }
                }
            } else {
                byte[] value = randomBytes(random, 80);
                writer.putBytes(type, value);
                expected.add(new Written(type, value, null));
            }
        }
        if (withIntegrity) {
            writer.putMessageIntegrity(KEY).putMessageIntegritySha256(KEY);
        }
        if (withFingerprint) {
            writer.putFingerprint();
        }

        assertThat(decoder.decode(buffer, messageOffset, writer.length())).isEqualTo(StunMessageDecoder.OK);
        assertThat(decoder.method()).isEqualTo(method);
        assertThat(decoder.messageClass()).isEqualTo(messageClass);
        assertThat(decoder.header().transactionIdHigh()).isEqualTo(tidHigh);
        assertThat(decoder.header().transactionIdLow()).isEqualTo(tidLow);
        assertThat(decoder.unknownRequiredCount()).isZero();
        for (Written w : expected) {
            assertThat(decoder.has(w.type())).isTrue();
            if (w.address() != null) {
                assertThat(AddressAttribute.decodeXor(
                                buffer,
                                messageOffset,
                                decoder.valueOffset(w.type()),
                                decoder.valueLength(w.type()),
                                address,
                                scratch16))
                        .isTrue();
                assertThat(address).isEqualTo(w.address());
            } else {
                byte[] actual = new byte[decoder.valueLength(w.type())];
                assertThat(decoder.copyValue(w.type(), actual)).isEqualTo(w.value().length);
                assertThat(actual).isEqualTo(w.value());
            }
        }
        assertThat(decoder.peerAddressCount()).isEqualTo(peers.size());
        for (int i = 0; i < peers.size(); i++) {
            assertThat(AddressAttribute.decodeXor(
                            buffer,
                            messageOffset,
                            decoder.peerAddressOffset(i),
                            decoder.peerAddressLength(i),
                            address,
                            scratch16))
                    .isTrue();
            assertThat(address).isEqualTo(peers.get(i));
        }
        if (withIntegrity) {
            assertThat(smallIntegrity.verify(buffer, messageOffset, decoder.integrityAttributeOffset(), KEY))
                    .isTrue();
            assertThat(smallIntegrity.verify(buffer, messageOffset, decoder.integritySha256AttributeOffset(), KEY))
                    .isTrue();
        } else {
            assertThat(decoder.integrityAttributeOffset()).isEqualTo(-1);
        }
        assertThat(decoder.fingerprintAttributeOffset() >= 0).isEqualTo(withFingerprint);
        assertThat(verifier.fingerprintValid(decoder)).isTrue();
    }

    private static TransportAddress randomAddress(Random random) {
        int port = random.nextInt(0x10000);
        if (random.nextBoolean()) {
            return TransportAddress.ofIpv4(random.nextInt(), port);
        }
        byte[] ip = new byte[16];
        random.nextBytes(ip);
        if (random.nextInt(8) == 0) {
            Arrays.fill(ip, 0, 10, (byte) 0); // IPv4-mapped: normalised on both sides
            ip[10] = (byte) 0xFF;
            ip[11] = (byte) 0xFF;
        }
        return new TransportAddress().setIpv6(ip, 0, port);
    }

    private static byte[] randomBytes(Random random, int maxLength) {
        byte[] value = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(value);
        return value;
    }
}
