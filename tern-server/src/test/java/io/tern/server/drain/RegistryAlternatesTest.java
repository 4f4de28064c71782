package io.tern.server.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.cluster.FleetNode;
import io.tern.cluster.NodeRegistry;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fleet's registry as the drain's source of alternates: live, not draining, least loaded first. */
class RegistryAlternatesTest {
    private static NodeRegistry registry(FleetNode... nodes) {
        return new NodeRegistry() {
            @Override
            public String selfId() {
                return "self";
            }

            @Override
            public List<FleetNode> liveNodes() {
                return List.of(nodes);
            }
        };
    }

    private static FleetNode node(String id, int allocations, boolean draining, String... listeners) {
        return new FleetNode(id, List.of(), List.of(listeners), allocations, draining);
    }

    @Test
    void drainingNodesAndThisOneAreSkippedAndTheLeastLoadedComesFirst() {
        AlternateServers servers = new RegistryAlternates(registry(
                        node("self", 0, true, "udp/192.0.2.9:3478"),
                        node("busy", 40, false, "udp/192.0.2.1:3478", "tcp/192.0.2.1:3478"),
                        node("idle", 2, false, "udp/192.0.2.2:3478"),
                        node("leaving", 0, true, "udp/192.0.2.3:3478")))
                .alternates();

        assertThat(servers.mode()).isEqualTo(AlternateServers.Mode.WHILE_DRAINING);
        assertThat(servers.count(TransportProtocol.UDP, false)).isEqualTo(2);
        assertThat(servers.get(TransportProtocol.UDP, false, 0)).isEqualTo(TransportAddress.parse("192.0.2.2", 3478));
        assertThat(servers.get(TransportProtocol.UDP, false, 1)).isEqualTo(TransportAddress.parse("192.0.2.1", 3478));
        assertThat(servers.count(TransportProtocol.TCP, false)).isEqualTo(1);
        assertThat(servers.count(TransportProtocol.TLS, false)).isZero();
    }

    @Test
    void ipv6ListenersKeepTheirFamilyAndNamesOrGarbageAreSkipped() {
        AlternateServers servers = new RegistryAlternates(registry(
                        node("a", 1, false, "udp/[2001:db8::1]:3478"),
                        node("b", 2, false, "udp/relay.example.org:3478"),
                        node("c", 3, false, "udp/192.0.2.1:99999"),
                        node("d", 4, false, "udp/192.0.2.1")))
                .alternates();

        assertThat(servers.count(TransportProtocol.UDP, true)).isEqualTo(1);
        assertThat(servers.get(TransportProtocol.UDP, true, 0)).isEqualTo(TransportAddress.parse("2001:db8::1", 3478));
        assertThat(servers.count(TransportProtocol.UDP, false)).isZero();
    }

    @Test
    void aFleetWithNoOtherLiveNodeHasNoAlternate() {
        assertThat(new RegistryAlternates(registry(node("self", 0, false, "udp/192.0.2.9:3478")))
                        .alternates()
                        .isEmpty())
                .isTrue();
    }
}
