package io.tern.stun.attribute;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.message.StunHeaderFlyweight;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The address decoders on any value bytes, in a buffer that ends where the value does: they answer
 * true exactly for the two well-formed shapes, never throw, and invert the encoders.
 */
class AddressAttributeTest {
    private final TransportAddress decoded = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    @Property(tries = 3000)
    void anyValueDecodesOrIsRefused(
            @ForAll @Size(value = StunHeaderFlyweight.HEADER_LENGTH) byte[] header,
            @ForAll @Size(max = 24) byte[] value,
            @ForAll @IntRange(max = 7) int messageOffset,
            @ForAll boolean wellFormedFamily) {
        if (wellFormedFamily && value.length >= 2) {
            value[1] = (byte)
                    (value.length == AddressAttribute.IPV6_VALUE_LENGTH
                            ? AddressAttribute.WIRE_FAMILY_IPV6
                            : AddressAttribute.WIRE_FAMILY_IPV4);
        }
        int valueOffset = messageOffset + header.length;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[valueOffset + value.length]);
        buffer.putBytes(messageOffset, header);
        buffer.putBytes(valueOffset, value);
        int family = value.length >= 2 ? value[1] : -1;
        boolean wellFormed = family == AddressAttribute.WIRE_FAMILY_IPV4
                        && value.length == AddressAttribute.IPV4_VALUE_LENGTH
                || family == AddressAttribute.WIRE_FAMILY_IPV6 && value.length == AddressAttribute.IPV6_VALUE_LENGTH;
        assertThat(AddressAttribute.decodeXor(buffer, messageOffset, valueOffset, value.length, decoded, scratch16))
                .isEqualTo(wellFormed);
        assertThat(AddressAttribute.decodePlain(buffer, valueOffset, value.length, decoded, scratch16))
                .isEqualTo(wellFormed);
    }

    @Property(tries = 1000)
    void decodingInvertsEncoding(
            @ForAll @Size(value = StunHeaderFlyweight.HEADER_LENGTH) byte[] header,
            @ForAll @Size(value = 16) byte[] ipv6,
            @ForAll int ipv4,
            @ForAll boolean isIpv6,
            @ForAll @IntRange(max = 0xFFFF) int port,
            @ForAll @IntRange(max = 7) int messageOffset) {
        TransportAddress address = new TransportAddress();
        if (isIpv6) {
            address.setIpv6(ipv6, 0, port);
        } else {
            address.setIpv4(ipv4, port);
        }
        int valueOffset = messageOffset + header.length;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[valueOffset + AddressAttribute.IPV6_VALUE_LENGTH]);
        buffer.putBytes(messageOffset, header);

        int xorLength = AddressAttribute.encodeXor(buffer, messageOffset, valueOffset, address);
        assertThat(AddressAttribute.decodeXor(buffer, messageOffset, valueOffset, xorLength, decoded, scratch16))
                .isTrue();
        assertThat(decoded).isEqualTo(address);

        int plainLength = AddressAttribute.encodePlain(buffer, valueOffset, address);
        assertThat(plainLength).isEqualTo(xorLength);
        assertThat(AddressAttribute.decodePlain(buffer, valueOffset, plainLength, decoded, scratch16))
                .isTrue();
        assertThat(decoded).isEqualTo(address);
    }
}
