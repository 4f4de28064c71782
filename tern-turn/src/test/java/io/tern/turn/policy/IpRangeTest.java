package io.tern.turn.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.stun.address.TransportAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one parser of {@code allowed-peer-ip} / {@code denied-peer-ip} ranges, for the config and the engine. */
class IpRangeTest {
    private static TransportAddress at(String ip) {
        return TransportAddress.parse(ip, 0);
    }

    @Test
    void singleAddress() {
        IpRange range = IpRange.parse(" 10.0.0.45 ");
        assertThat(range.contains(at("10.0.0.45"))).isTrue();
        assertThat(range.contains(at("10.0.0.44"))).isFalse();
        assertThat(range.contains(at("10.0.0.46"))).isFalse();
        assertThat(range).hasToString("10.0.0.45");
    }

    @Test
    void coturnRangeIsInclusive() {
        IpRange range = IpRange.parse("192.168.1.10 - 192.168.1.20");
        assertThat(range.contains(at("192.168.1.10"))).isTrue();
        assertThat(range.contains(at("192.168.1.15"))).isTrue();
        assertThat(range.contains(at("192.168.1.20"))).isTrue();
        assertThat(range.contains(at("192.168.1.21"))).isFalse();
        assertThat(range).hasToString("192.168.1.10-192.168.1.20");
    }

    @Test
    void cidrBlocks() {
        IpRange v4 = IpRange.parse("192.168.0.0/16");
        assertThat(v4.contains(at("192.168.255.255"))).isTrue();
        assertThat(v4.contains(at("192.169.0.0"))).isFalse();
        IpRange v6 = IpRange.parse("fc00::/7");
        assertThat(v6.contains(at("fdff::1"))).isTrue();
        assertThat(v6.contains(at("fe00::1"))).isFalse();
        assertThat(v6.contains(at("192.168.0.1"))).isFalse();
        assertThat(v4.contains(at("::ffff:192.168.3.4"))).isTrue();
        assertThat(IpRange.parse("0.0.0.0/0").contains(at("255.255.255.255"))).isTrue();
        assertThat(IpRange.parse("::1/128").contains(at("::1"))).isTrue();
    }

    @Test
    void hostBitsOfACidrBaseAreIgnored() {
        assertThat(IpRange.parse("10.1.2.3/8")).isEqualTo(IpRange.parse("10.0.0.0-10.255.255.255"));
    }

    @Test
    void equalWhenTheyHoldTheSameAddresses() {
        assertThat(IpRange.parse("172.16.0.0/12"))
                .isEqualTo(IpRange.parse("172.16.0.0-172.31.255.255"))
                .hasSameHashCodeAs(IpRange.parse("172.16.0.0-172.31.255.255"));
        assertThat(IpRange.parse("10.0.0.45")).isEqualTo(IpRange.parse("10.0.0.45-10.0.0.45"));
        assertThat(IpRange.parse("::ffff:10.0.0.1")).isEqualTo(IpRange.parse("10.0.0.1"));
        assertThat(IpRange.parse("0.0.0.0/8")).isNotEqualTo(IpRange.parse("::/104"));
    }

    @Test
    void toStringIsCoturnSyntaxThatParsesBack() {
        for (String text : new String[] {"172.16.0.0/12", "fe80::/10", "1.2.3.4", "::1", "10.0.0.9-10.0.0.20"}) {
            IpRange range = IpRange.parse(text);
            assertThat(range.toString()).doesNotContain("/");
            assertThat(IpRange.parse(range.toString())).isEqualTo(range);
        }
        assertThat(IpRange.parse("172.16.0.0/12")).hasToString("172.16.0.0-172.31.255.255");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "10.0.0.9-10.0.0.1 | range start is above its end",
                "10.0.0.1-::1      | mixed address families",
                "10.0.0.0/33       | prefix length must be 0-32: '33'",
                "::/129            | prefix length must be 0-128: '129'",
                "10.0.0.0/x        | prefix length must be 0-32: 'x'",
                "10.0.0.0/+8       | prefix length must be 0-32: '+8'",
                "10.0.0.0/         | prefix length must be 0-32: ''",
                "nonsense          | not an IP address: 'nonsense'",
                "example.com       | not an IP address: 'example.com'",
                "1.2.3             | not an IP address: '1.2.3'",
                "256.1.1.1         | not an IP address: '256.1.1.1'",
                "010.0.0.1         | not an IP address: '010.0.0.1'",
                "1.2.3.4-          | not an IP address: ''",
                "fe80::1::2/64     | not an IP address: 'fe80::1::2'",
            })
    void invalidRangesAreRejectedWithAReason(String text, String reason) {
        assertThatThrownBy(() -> IpRange.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(reason);
    }
}
