package io.tern.server.config;

import static io.tern.server.config.ConfigTestSupport.cli;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.IpLiterals;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Listening and relay addresses from the options and a host's interface addresses. */
class AddressPlanTest {
    /** lo, then eth0 with a link-local, a unique-local and a global IPv6 address. */
    private static final List<InetAddress> DUAL_STACK_HOST =
            ips("127.0.0.1", "::1", "fe80::1", "192.0.2.7", "fd00::7", "2001:db8::7", "2001:db8::8", "192.0.2.8");

    private static final List<InetAddress> IPV4_ONLY_HOST = ips("127.0.0.1", "169.254.1.1", "10.1.2.3");

    private final TurnServerConfigAssembler assembler = new TurnServerConfigAssembler(message -> {});

    @Test
    void withoutOptionsADualStackHostIsServedOnBothFamilies() {
        final AddressPlan plan = plan(DUAL_STACK_HOST);
        assertThat(plan.listenIps()).containsExactly(ip("::"));
        assertThat(plan.relayV4()).contains(ip("192.0.2.7"));
        // A global address before a unique-local one; link-local and loopback never.
        assertThat(plan.relayV6()).contains(ip("2001:db8::7"));
        assertThat(plan.describeRelay()).isEqualTo("192.0.2.7 and 2001:db8::7");
    }

    @Test
    void aUniqueLocalAddressIsUsedWhenTheHostHasNoGlobalOne() {
        assertThat(plan(ips("::1", "fe80::1", "fd00::2", "192.0.2.2")).relayV6())
                .contains(ip("fd00::2"));
    }

    @Test
    void anIpv4OnlyHostListensOnIpv4AndHasNoIpv6Relay() {
        final AddressPlan plan = plan(IPV4_ONLY_HOST);
        assertThat(plan.listenIps()).containsExactly(ip("0.0.0.0"));
        assertThat(plan.relayV4()).contains(ip("10.1.2.3"));
        assertThat(plan.relayV6()).isEmpty();
    }

    @Test
    void aHostWithLoopbackOnlyRelaysIpv4OnLoopbackAndNotIpv6() {
        final AddressPlan plan = plan(ips("127.0.0.1", "::1"));
        assertThat(plan.listenIps()).containsExactly(ip("::"));
        assertThat(plan.relayV4()).contains(ip("127.0.0.1"));
        assertThat(plan.relayV6()).isEmpty();
    }

    @Test
    void relayIpsWinAndAFamilyWithoutOneHasNoRelay() {
        assertThat(plan(DUAL_STACK_HOST, "relay-ip", "192.0.2.8").relayV4()).contains(ip("192.0.2.8"));
        assertThat(plan(DUAL_STACK_HOST, "relay-ip", "192.0.2.8").relayV6()).isEmpty();
        final AddressPlan v6 = plan(DUAL_STACK_HOST, "relay-ip", "2001:db8::8");
        assertThat(v6.relayV4()).isEmpty();
        assertThat(v6.relayV6()).contains(ip("2001:db8::8"));
    }

    @Test
    void specificListeningIpsAreTheRelayAddressesOfTheirFamily() {
        final AddressPlan both = plan(DUAL_STACK_HOST, "listening-ip", "192.0.2.8", "listening-ip", "2001:db8::8");
        assertThat(both.listenIps()).containsExactly(ip("192.0.2.8"), ip("2001:db8::8"));
        assertThat(both.relayV4()).contains(ip("192.0.2.8"));
        assertThat(both.relayV6()).contains(ip("2001:db8::8"));
        // An IPv4 listener alone: no IPv6 relay taken from the host, as before IPv6 was a default.
        final AddressPlan v4 = plan(DUAL_STACK_HOST, "listening-ip", "127.0.0.1");
        assertThat(v4.relayV4()).contains(ip("127.0.0.1"));
        assertThat(v4.relayV6()).isEmpty();
    }

    @Test
    void anExplicitIpv4WildcardStillOffersIpv6Relays() {
        final AddressPlan plan = plan(DUAL_STACK_HOST, "listening-ip", "0.0.0.0");
        assertThat(plan.listenIps()).containsExactly(ip("0.0.0.0"));
        assertThat(plan.relayV4()).contains(ip("192.0.2.7"));
        assertThat(plan.relayV6()).contains(ip("2001:db8::7"));
    }

    @Test
    void aWildcardStandsForEveryHostAddress() {
        final AddressPlan plan = plan(DUAL_STACK_HOST);
        assertThat(plan.localAddresses(ip("::"))).isEqualTo(DUAL_STACK_HOST);
        assertThat(plan.localAddresses(ip("192.0.2.7"))).containsExactly(ip("192.0.2.7"));
    }

    @Test
    void listenersAreDescribedWithTheirFamilies() {
        assertThat(AddressPlan.describe(
                        List.of(new InetSocketAddress(ip("::"), 3478), new InetSocketAddress(ip("127.0.0.1"), 3479))))
                .isEqualTo("[::]:3478 (IPv4 and IPv6) and 127.0.0.1:3479");
        assertThat(AddressPlan.describe(List.of())).isEqualTo("(disabled)");
        assertThat(new AddressPlan(List.of(), Optional.empty(), Optional.empty(), List.of()).describeRelay())
                .isEqualTo("(none)");
    }

    private AddressPlan plan(final List<InetAddress> host, final String... options) {
        return AddressPlan.of(assembler.assemble(List.of(), cli(options)), host);
    }

    private static InetAddress ip(final String literal) {
        return IpLiterals.parse(literal);
    }

    private static List<InetAddress> ips(final String... literals) {
        return Arrays.stream(literals).map(AddressPlanTest::ip).toList();
    }
}
