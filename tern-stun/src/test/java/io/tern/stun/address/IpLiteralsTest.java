package io.tern.stun.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet4Address;
import java.net.Inet6Address;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralsTest {
    @Test
    void dottedQuadAndIpv6() {
        assertThat(IpLiterals.parse("192.0.2.1"))
                .isInstanceOf(Inet4Address.class)
                .extracting(a -> a.getHostAddress())
                .isEqualTo("192.0.2.1");
        assertThat(IpLiterals.parse("2001:db8::1"))
                .isInstanceOf(Inet6Address.class)
                .extracting(a -> a.getHostAddress())
                .isEqualTo("2001:db8:0:0:0:0:0:1");
    }

    @Test
    void ipv4MappedIpv6IsIpv4() {
        assertThat(IpLiterals.parse("::ffff:192.0.2.1")).isEqualTo(IpLiterals.parse("192.0.2.1"));
    }

    /** Host names are never resolved, and InetAddress's legacy forms ({@code 1.2.3}, octal-looking parts) are refused. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "1.2.3",
                "1.2.3.4.5",
                "256.1.1.1",
                "01.2.3.4",
                "1.2.3.4 ",
                "localhost",
                "example.com",
                "fe80::1::2",
                ".::1",
                "1.2.3.-4",
                "::g"
            })
    void rejectsEverythingElse(String text) {
        assertThatThrownBy(() -> IpLiterals.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not an IP address");
    }
}
