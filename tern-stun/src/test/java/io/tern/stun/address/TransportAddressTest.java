package io.tern.stun.address;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class TransportAddressTest {
    private static byte[] ip(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void ipv4MappedIpv6IsNormalisedToIpv4() {
        TransportAddress a = new TransportAddress().setIpv6(ip("00000000000000000000ffffc0000201"), 0, 3478);
        assertThat(a.isIpv4()).isTrue();
        assertThat(a.family()).isEqualTo(TransportAddress.FAMILY_IPV4);
        assertThat(a.ipv4()).isEqualTo(0xC0000201);
        assertThat(a.port()).isEqualTo(3478);
        assertThat(a).isEqualTo(TransportAddress.parse("192.0.2.1", 3478));
        assertThat(a.hashCode())
                .isEqualTo(TransportAddress.parse("192.0.2.1", 3478).hashCode());
        assertThat(a.toString()).isEqualTo("192.0.2.1:3478");
    }

    @Test
    void mappedAddressAtAnOffsetInTheSourceArray() {
        byte[] src = ip("ffff" + "00000000000000000000ffff7f000001" + "ffff");
        TransportAddress a = new TransportAddress().setIpv6(src, 2, 1);
        assertThat(a.isIpv4()).isTrue();
        assertThat(a.ipv4()).isEqualTo(0x7F000001);
    }

    @Test
    void nearMissesStayIpv6() {
        // IPv4-compatible (::a.b.c.d), ::ffff:0:a.b.c.d (SIIT) and a one-bit-off prefix are not IPv4-mapped.
        for (String hex : new String[] {
            "000000000000000000000000c0000201", "0000000000000000ffff0000c0000201",
            "00000000000000000001ffffc0000201", "00000000000000000000fffec0000201"
        }) {
            TransportAddress a = new TransportAddress().setIpv6(ip(hex), 0, 1);
            assertThat(a.isIpv4()).as(hex).isFalse();
            assertThat(a.ipv6Bytes()).isEqualTo(ip(hex));
        }
    }

    @Test
    void setFromInetAddressNormalisesToo() throws Exception {
        InetAddress mapped = InetAddress.getByAddress(ip("00000000000000000000ffff0a000001"));
        TransportAddress a = new TransportAddress().set(mapped, 9);
        assertThat(a.isIpv4()).isTrue();
        assertThat(a.ipv4()).isEqualTo(0x0A000001);
        assertThat(TransportAddress.parse("::ffff:10.0.0.1", 9)).isEqualTo(a);
    }

    @Test
    void setFromInet4AddressKeepsEveryBitOfTheAddress() throws Exception {
        for (String dotted : new String[] {"0.0.0.0", "127.0.0.1", "203.0.113.250", "255.255.255.255", "128.0.0.1"}) {
            TransportAddress a =
                    new TransportAddress().set(new InetSocketAddress(InetAddress.getByName(dotted), 65535));
            assertThat(a).as(dotted).isEqualTo(TransportAddress.parse(dotted, 65535));
            assertThat(a.toInetSocketAddress().getAddress().getHostAddress()).isEqualTo(dotted);
        }
    }

    @Test
    void ipv6RoundTripsThroughInetSocketAddress() {
        TransportAddress a = TransportAddress.parse("2001:db8::42", 5349);
        assertThat(a.isIpv4()).isFalse();
        InetSocketAddress isa = a.toInetSocketAddress();
        assertThat(isa.getPort()).isEqualTo(5349);
        assertThat(TransportAddress.of(isa)).isEqualTo(a);
        assertThat(a.toString()).isEqualTo("[2001:db8:0:0:0:0:0:42]:5349");
    }

    @Test
    void packingRoundTripsEveryCorner() {
        int[] ips = {0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xC0000201};
        int[] ports = {0, 1, 3478, 0x7FFF, 0x8000, 0xFFFF};
        for (int ipv4 : ips) {
            for (int port : ports) {
                long packed = TransportAddress.ofIpv4(ipv4, port).packedIpv4();
                assertThat(packed).isNotNegative();
                assertThat(packed >>> 48).isZero();
                assertThat(TransportAddress.unpackIpv4(packed)).isEqualTo(ipv4);
                assertThat(TransportAddress.unpackPort(packed)).isEqualTo(port);
            }
        }
        assertThat(TransportAddress.ofIpv4(0xC0000201, 1).packedIpv4())
                .isNotEqualTo(TransportAddress.ofIpv4(0xC0000201, 2).packedIpv4())
                .isNotEqualTo(TransportAddress.ofIpv4(0xC0000202, 1).packedIpv4());
    }

    @Test
    void equalityIgnoresStaleBytesOfTheOtherFamily() {
        TransportAddress a = TransportAddress.parse("2001:db8::1", 1).setIpv4(0x0A000001, 2);
        TransportAddress b = TransportAddress.ofIpv4(0x0A000001, 2);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.sameIp(b)).isTrue();
        assertThat(a).isNotEqualTo(TransportAddress.ofIpv4(0x0A000001, 3));
        assertThat(TransportAddress.parse("::1", 2)).isNotEqualTo(b);
    }

    @Test
    void copyAndSetAreIndependent() {
        TransportAddress a = TransportAddress.parse("2001:db8::1", 1);
        TransportAddress c = a.copy();
        a.setIpv6(ip("20010db8000000000000000000000002"), 0, 1);
        assertThat(c).isNotEqualTo(a);
        assertThat(c).isEqualTo(TransportAddress.parse("2001:db8::1", 1));
        assertThat(new TransportAddress().set(c)).isEqualTo(c);
        assertThat(c.port(7).port()).isEqualTo(7);
    }
}
