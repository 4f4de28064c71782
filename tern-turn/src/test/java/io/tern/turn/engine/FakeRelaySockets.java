package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Relay sockets that exist only as ids; ports in {@link #refusedPorts} behave as taken by another process. */
final class FakeRelaySockets implements RelaySockets {
    final Map<Integer, TransportAddress> open = new LinkedHashMap<>();
    final List<TransportAddress> openedHistory = new ArrayList<>();
    final List<Integer> closed = new ArrayList<>();
    final Set<Integer> refusedPorts = new HashSet<>();
    final List<Integer> refusals = new ArrayList<>();
    int badCloses;
    private int nextId = 11;

    @Override
    public int open(TransportAddress address) {
        if (refusedPorts.contains(address.port())) {
            refusals.add(address.port());
            return -1;
        }
        for (TransportAddress bound : open.values()) {
            if (bound.equals(address)) {
                throw new AssertionError("engine bound " + address + " twice");
            }
        }
        int id = nextId++;
        open.put(id, address.copy());
        openedHistory.add(address.copy());
        return id;
    }

    @Override
    public void close(int relayId) {
        if (open.remove(relayId) == null) {
            badCloses++;
        }
        closed.add(relayId);
    }

    TransportAddress address(int relayId) {
        return open.get(relayId);
    }

    /** The id of the open socket bound to this address, or -1. */
    int idOf(TransportAddress address) {
        for (Map.Entry<Integer, TransportAddress> e : open.entrySet()) {
            if (e.getValue().equals(address)) {
                return e.getKey();
            }
        }
        return -1;
    }
}
