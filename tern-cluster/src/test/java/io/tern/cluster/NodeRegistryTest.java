package io.tern.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry's choice of where a draining node sends clients, on a fixed view (no Redis). */
class NodeRegistryTest {
    private static FleetNode node(String id, int allocations, boolean draining, String... listeners) {
        return new FleetNode(id, List.of(), List.of(listeners), allocations, draining);
    }

    private static NodeRegistry view(String self, FleetNode... nodes) {
        return new NodeRegistry() {
            @Override
            public String selfId() {
                return self;
            }

            @Override
            public List<FleetNode> liveNodes() {
                return List.of(nodes);
            }
        };
    }

    @Test
    void alternatesSkipSelfAndDrainingNodesAndPutTheLeastLoadedFirst() {
        NodeRegistry registry = view(
                "a",
                node("a", 0, true, "udp/192.0.2.1:3478"),
                node("b", 9, false, "udp/192.0.2.2:3478"),
                node("c", 2, true, "udp/192.0.2.3:3478"),
                node("d", 4, false, "udp/192.0.2.4:3478", "tcp/192.0.2.4:3478"),
                node("e", 1, false, "udp/192.0.2.5:3478"));

        assertThat(registry.alternates("udp", 8)).containsExactly("192.0.2.5:3478", "192.0.2.4:3478", "192.0.2.2:3478");
        assertThat(registry.alternates("udp", 1)).containsExactly("192.0.2.5:3478");
        assertThat(registry.alternates("tcp", 8)).containsExactly("192.0.2.4:3478");
        assertThat(registry.alternates("tls", 8)).isEmpty();
        assertThat(registry.leastLoadedLiveNode(true).orElseThrow().nodeId()).isEqualTo("e");
    }

    @Test
    void tiesGoToTheLowerNodeIdSoEveryNodeRanksAlike() {
        FleetNode[] nodes = {
            node("z", 3, false, "udp/192.0.2.26:3478"),
            node("m", 3, false, "udp/192.0.2.13:3478"),
            node("self", 0, false, "udp/192.0.2.1:3478")
        };
        assertThat(view("self", nodes).alternates("udp", 8)).containsExactly("192.0.2.13:3478", "192.0.2.26:3478");
        assertThat(view("self", nodes).leastLoadedLiveNode(false).orElseThrow().nodeId())
                .isEqualTo("self");
        assertThat(view("self", nodes).leastLoadedLiveNode(true).orElseThrow().nodeId())
                .isEqualTo("m");
    }

    @Test
    void aFleetOfDrainingNodesOffersNoAlternate() {
        NodeRegistry registry =
                view("a", node("a", 0, false, "udp/192.0.2.1:3478"), node("b", 0, true, "udp/192.0.2.2:3478"));
        assertThat(registry.alternates("udp", 8)).isEmpty();
        assertThat(registry.leastLoadedLiveNode(true)).isEmpty();
    }
}
