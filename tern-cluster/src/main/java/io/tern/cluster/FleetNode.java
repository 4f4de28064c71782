package io.tern.cluster;

import java.util.List;

/**
 * One relay of the fleet as its registration in Redis says, read back by {@link NodeRegistry}.
 *
 * @param nodeId      {@code --cluster-node-id}
 * @param relays      its relay addresses, as the clients see them ({@code external-ip} if set)
 * @param listeners   its client listeners, each {@code udp|tcp|tls/HOST:PORT}
 * @param allocations allocations it holds
 * @param draining    it takes no new allocations
 */
public record FleetNode(String nodeId, List<String> relays, List<String> listeners, int allocations, boolean draining) {
    public FleetNode {
        relays = List.copyOf(relays);
        listeners = List.copyOf(listeners);
    }

    /** The first listener of {@code protocol} ({@code udp}, {@code tcp}, {@code tls}) as {@code HOST:PORT}, or null. */
    public String listener(String protocol) {
        String prefix = protocol + "/";
        for (String listener : listeners) {
            if (listener.startsWith(prefix)) {
                return listener.substring(prefix.length());
            }
        }
        return null;
    }
}
