package io.tern.cluster;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The fleet's relays as the node registry in Redis last showed them (refreshed every third of
 * {@code --cluster-lease-ttl}): a node that stops refreshing its registration drops out within the
 * TTL. Reads are local and never wait on Redis, so a relay thread or a timer may ask at any time.
 */
public interface NodeRegistry {
    /** Fewest allocations first; ties go to the lower node id, so every node ranks the fleet alike. */
    Comparator<FleetNode> LEAST_LOADED =
            Comparator.comparingInt(FleetNode::allocations).thenComparing(FleetNode::nodeId);

    /** This node's {@code --cluster-node-id}. */
    String selfId();

    /** Every registered node whose registration has not lapsed, this one included, by node id. */
    List<FleetNode> liveNodes();

    /**
     * The live node that is not draining and holds the fewest allocations (ties go to the lower node
     * id), or empty when there is none.
     */
    default Optional<FleetNode> leastLoadedLiveNode(boolean excludingSelf) {
        return liveNodes().stream()
                .filter(node -> !node.draining())
                .filter(node -> !(excludingSelf && node.nodeId().equals(selfId())))
                .min(LEAST_LOADED);
    }

    /**
     * Where a draining node sends new clients of {@code protocol} ({@code udp}, {@code tcp},
     * {@code tls}; 300 Try Alternate): the {@code HOST:PORT} listeners of the other live nodes that
     * are not draining and listen on it, least loaded first, at most {@code max}.
     */
    default List<String> alternates(String protocol, int max) {
        List<FleetNode> candidates = new ArrayList<>();
        for (FleetNode node : liveNodes()) {
            if (!node.draining() && !node.nodeId().equals(selfId()) && node.listener(protocol) != null) {
                candidates.add(node);
            }
        }
        candidates.sort(LEAST_LOADED);
        List<String> listeners = new ArrayList<>(Math.min(max, candidates.size()));
        for (FleetNode node : candidates) {
            if (listeners.size() == max) {
                break;
            }
            listeners.add(node.listener(protocol));
        }
        return listeners;
    }
}
