package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import java.util.ArrayList;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The peer TCP connections of an engine's TCP allocations (RFC 6062), by the transport's socket id,
 * by CONNECTION-ID, and by the client data connection they are bound to.
 */
public final class PeerConnectionTable {
    private final Int2ObjectHashMap<PeerConnection> byRelayId = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<PeerConnection> byConnectionId = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<PeerConnection> byDataConnection = new Long2ObjectHashMap<>();

    /** Records a new connection of {@code owner}; the CONNECTION-ID must be unused ({@link #byConnectionId}). */
    public PeerConnection add(
            Allocation owner, int relayId, long connectionId, TransportAddress peer, PeerConnection.State state) {
        PeerConnection connection = new PeerConnection(owner, relayId, connectionId, peer, state);
        byRelayId.put(relayId, connection);
        byConnectionId.put(connectionId, connection);
        owner.peerConnections.add(connection);
        return connection;
    }

    public PeerConnection byRelayId(int relayId) {
        return byRelayId.get(relayId);
    }

    public PeerConnection byConnectionId(long connectionId) {
        return byConnectionId.get(connectionId);
    }

    public PeerConnection byDataConnection(long dataConnectionId) {
        return byDataConnection.get(dataConnectionId);
    }

    public void bind(PeerConnection connection, long dataConnectionId) {
        connection.bound(dataConnectionId);
        byDataConnection.put(dataConnectionId, connection);
    }

    public void remove(PeerConnection connection) {
        byRelayId.remove(connection.relayId);
        byConnectionId.remove(connection.connectionId);
        if (connection.state == PeerConnection.State.BOUND) {
            byDataConnection.remove(connection.dataConnectionId);
        }
        connection.owner.peerConnections.remove(connection);
    }

    /** The connections of {@code owner}, copied, for deleting them with it. */
    public static ArrayList<PeerConnection> of(Allocation owner) {
        return new ArrayList<>(owner.peerConnections);
    }

    public int size() {
        return byRelayId.size();
    }
}
