package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Allocations by client 5-tuple and by relay socket. A UDP client over IPv4 is keyed by one long
 * (listener, IP, port); a TCP or TLS client by its connection id with the top bit set; an IPv6 UDP
 * client through a small key object, looked up with a reused probe so lookups don't allocate.
 */
public final class AllocationTable {
    private static final long CONNECTION_KEY_BIT = Long.MIN_VALUE;

    private final Long2ObjectHashMap<Allocation> byClientKey = new Long2ObjectHashMap<>();
    private final Map<Ipv6ClientKey, Allocation> byIpv6Client = new HashMap<>();
    private final Int2ObjectHashMap<Allocation> byRelayId = new Int2ObjectHashMap<>();
    private final Ipv6ClientKey probe = new Ipv6ClientKey();

    /**
     * The primitive key of a client, or -1 for an IPv6 UDP client (which is looked up by address).
     * Listener ids are below 2^15, so UDP keys never have the top bit.
     */
    public static long clientKey(int listenerId, long connectionId, TransportAddress client) {
        if (connectionId != 0) {
            return CONNECTION_KEY_BIT | connectionId;
        }
        if (client.isIpv4()) {
            return ((long) listenerId << 48) | client.packedIpv4();
        }
        return -1;
    }

    public Allocation find(int listenerId, long connectionId, TransportAddress client) {
        long key = clientKey(listenerId, connectionId, client);
        if (key != -1) {
            return byClientKey.get(key);
        }
        return byIpv6Client.get(probe.set(listenerId, client));
    }

    /** The allocation of a TCP or TLS control connection. */
    public Allocation byConnection(long connectionId) {
        return byClientKey.get(CONNECTION_KEY_BIT | connectionId);
    }

    public Allocation byRelayId(int relayId) {
        return byRelayId.get(relayId);
    }

    public void add(Allocation allocation) {
        if (allocation.clientKey != -1) {
            byClientKey.put(allocation.clientKey, allocation);
        } else {
            byIpv6Client.put(new Ipv6ClientKey().set(allocation.listenerId, allocation.client), allocation);
        }
    }

    public void indexRelay(int relayId, Allocation allocation) {
        byRelayId.put(relayId, allocation);
    }

    public void unindexRelay(int relayId) {
        byRelayId.remove(relayId);
    }

    public void remove(Allocation allocation) {
        if (allocation.clientKey != -1) {
            byClientKey.remove(allocation.clientKey);
        } else {
            byIpv6Client.remove(probe.set(allocation.listenerId, allocation.client));
        }
        if (allocation.relayIdV4 >= 0) {
            byRelayId.remove(allocation.relayIdV4);
        }
        if (allocation.relayIdV6 >= 0) {
            byRelayId.remove(allocation.relayIdV6);
        }
    }

    public int size() {
        return byClientKey.size() + byIpv6Client.size();
    }

    /** A copy of every allocation, for shutdown and diagnostics. */
    public List<Allocation> all() {
        List<Allocation> all = new ArrayList<>(byClientKey.values());
        all.addAll(byIpv6Client.values());
        return all;
    }

    private static final class Ipv6ClientKey {
        private int listenerId;
        private final TransportAddress address = new TransportAddress();

        Ipv6ClientKey set(int listenerId, TransportAddress client) {
            this.listenerId = listenerId;
            this.address.set(client);
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Ipv6ClientKey k && k.listenerId == listenerId && k.address.equals(address);
        }

        @Override
        public int hashCode() {
            return Objects.hash(listenerId, address);
        }
    }
}
