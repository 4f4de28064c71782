package io.tern.server.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.interop.InteropRelay;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** coturn's alternate-server options as Tern reads them, and the drain's exit condition. */
class StaticAlternatesTest {
    private static AlternateServers alternates(String... options) {
        return StaticAlternates.from(InteropRelay.config(options)).alternates();
    }

    @Test
    void alternateServerServesUdpAndTcpWithPort3478UnlessGiven() {
        AlternateServers servers =
                alternates("alternate-server", "192.0.2.1", "alternate-server", "[2001:db8::1]:4000");

        assertThat(servers.mode()).isEqualTo(AlternateServers.Mode.ALWAYS);
        assertThat(servers.get(TransportProtocol.UDP, false, 0)).isEqualTo(TransportAddress.parse("192.0.2.1", 3478));
        assertThat(servers.get(TransportProtocol.TCP, true, 0)).isEqualTo(TransportAddress.parse("2001:db8::1", 4000));
        assertThat(servers.count(TransportProtocol.TLS, false)).isZero();
    }

    @Test
    void transportListsReplaceAlternateServerForTheirTransportAndTlsDefaultsTo5349() {
        AlternateServers servers = alternates(
                "alternate-server", "192.0.2.1",
                "udp-alternate-server", "192.0.2.2:3500",
                "tls-alternate-server", "192.0.2.3");

        assertThat(servers.get(TransportProtocol.UDP, false, 0)).isEqualTo(TransportAddress.parse("192.0.2.2", 3500));
        assertThat(servers.count(TransportProtocol.UDP, false)).isEqualTo(1);
        assertThat(servers.get(TransportProtocol.TCP, false, 0)).isEqualTo(TransportAddress.parse("192.0.2.1", 3478));
        assertThat(servers.get(TransportProtocol.TLS, false, 0)).isEqualTo(TransportAddress.parse("192.0.2.3", 5349));
    }

    @Test
    void noOptionsMeansNoRedirect() {
        assertThat(alternates()).isSameAs(AlternateServers.NONE);
    }

    @Test
    void aListNamingThisServerItselfRedirectsNobodyAsInCoturn() {
        StaticAlternates source = StaticAlternates.from(InteropRelay.config(
                "alternate-server",
                "127.0.0.1:3478",
                "alternate-server",
                "192.0.2.9",
                "tls-alternate-server",
                "192.0.2.9"));

        source.excludeSelf(Map.of(
                TransportProtocol.UDP, List.of(new InetSocketAddress("0.0.0.0", 3478)),
                TransportProtocol.TLS, List.of(new InetSocketAddress("127.0.0.1", 5349))));

        assertThat(source.alternates().count(TransportProtocol.UDP, false)).isZero();
        assertThat(source.alternates().count(TransportProtocol.TCP, false))
                .as("no TCP listener here, so no loop")
                .isEqualTo(2);
        assertThat(source.alternates().count(TransportProtocol.TLS, false)).isEqualTo(1);
    }

    @Test
    void aBadAlternateIsRefusedNamingTheOptionAndTheValue() {
        assertThatThrownBy(() -> InteropRelay.config("alternate-server", "relay.example:3478"))
                .hasMessageContaining("alternate-server")
                .hasMessageContaining("relay.example");
        assertThatThrownBy(() -> InteropRelay.config("tls-alternate-server", "192.0.2.1:70000"))
                .hasMessageContaining("tls-alternate-server")
                .hasMessageContaining("70000");
        assertThatThrownBy(() -> InteropRelay.config("alternate-server", "[2001:db8::1"))
                .hasMessageContaining("alternate-server");
    }

    @Test
    void drainExitsOnceAllocationsAreDownToTheMinimumAndNeverWhenNotDraining() {
        assertThat(RelayDrain.exitDue(true, 0, 0)).isTrue();
        assertThat(RelayDrain.exitDue(true, 1, 0)).isFalse();
        assertThat(RelayDrain.exitDue(true, 3, 3)).isTrue();
        assertThat(RelayDrain.exitDue(false, 0, 0)).isFalse();
    }
}
