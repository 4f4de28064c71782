package io.tern.cluster;

import java.util.List;
import java.util.Optional;

/**
 * The fleet's relays as the node registry in Redis last showed them (refreshed every third of
 * {@code --cluster-lease-ttl}): a node that stops refreshing its registration drops out within the
 * TTL. Reads are local and never wait on Redis.
 */
public interface NodeRegistry {
    /** This node's {@code --cluster-node-id}. */
    String selfId();

    /** Every registered node whose registration has not lapsed, this one included, by node id. */
    List<FleetNode> liveNodes();

    /**
     * The live node that is not draining and holds the fewest allocations (ties go to the lower node
     * id), or empty when there is none: where a draining node sends new clients (300 Try Alternate).
     */
    default Optional<FleetNode> leastLoadedLiveNode(boolean excludingSelf) {
        FleetNode best = null;
        for (FleetNode node : liveNodes()) {
            if (node.draining() || excludingSelf && node.nodeId().equals(selfId())) {
                continue;
            }
            if (best == null
                    || node.allocations() < best.allocations()
                    || node.allocations() == best.allocations() && node.nodeId().compareTo(best.nodeId()) < 0) {
                best = node;
            }
        }
        return Optional.ofNullable(best);
    }
}
