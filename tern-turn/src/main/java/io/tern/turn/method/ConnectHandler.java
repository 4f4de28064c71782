package io.tern.turn.method;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ConnectionId;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.allocation.PeerConnection;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;

/**
 * TCP connections between a TCP allocation and its peers (RFC 6062): Connect requests (§5.2), the
 * transport's report on them, peers connecting in with their ConnectionAttempt indications
 * (§5.3), and the 30-second limits on connecting and on waiting for ConnectionBind.
 */
public final class ConnectHandler {
    private final EngineState engine;
    private final TransportAddress peer = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    public ConnectHandler(EngineState engine) {
        this.engine = engine;
    }

    /** A Connect request on the control connection of {@code request.allocation()}. */
    public void handle(RequestContext request) {
        Allocation allocation = request.allocation();
        // §5.2: only a TCP allocation connects to peers (coturn answers 403 too).
        if (allocation.relayProtocol() != RequestedTransport.TCP) {
            request.signedError(ErrorCode.FORBIDDEN);
            return;
        }
        // §5.2: XOR-PEER-ADDRESS must be there and well formed (400), of the allocation's family (443).
        if (!AddressAttribute.decodeXorPeer(request.message(), 0, peer, scratch16)) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        int parentRelayId = allocation.relayIdFor(peer);
        if (parentRelayId < 0) {
            request.signedError(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
            return;
        }
        // §5.2: a connection to this peer being made or made already is 446.
        if (allocation.peerConnection(peer) != null) {
            request.signedError(ErrorCode.CONNECTION_ALREADY_EXISTS);
            return;
        }
        // §5.2: the server's policy may forbid the peer (403); so does the lack of a permission,
        // which every relayed byte needs (RFC 8656 §9).
        if (!engine.peerPolicy().permitsDestination(peer) || allocation.permission(peer) == null) {
            request.signedError(ErrorCode.FORBIDDEN);
            return;
        }
        // Tern bounds the connections of one allocation.
        if (allocation.peerConnectionCount() >= engine.config.maxPeerConnections()) {
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        // §5.2: connect from the relayed transport address; answer once the transport reports
        // back, or with 447 when the attempt takes too long.
        int relayId = engine.newRelayId();
        PeerConnection connection = engine.peerConnections.add(
                allocation, relayId, engine.newConnectionId(), peer, PeerConnection.State.CONNECTING);
        request.remember(connection.connectAnswer());
        engine.timers.schedule(connection, request.nowNs() + engine.config.peerConnectionTimeoutNs());
        engine.commands.connectPeer(relayId, parentRelayId, peer);
    }

    /** The transport connected (or failed to connect) peer connection {@code relayId}. */
    public void onPeerConnected(PeerConnection connection, boolean connected, long nowNs) {
        if (connection.state() != PeerConnection.State.CONNECTING) {
            return;
        }
        if (!connected) {
            failConnect(connection, nowNs);
            return;
        }
        // §5.2: success carries the CONNECTION-ID; the client has 30 s to bind a data connection.
        connection.connected();
        engine.timers.schedule(connection, nowNs + engine.config.peerConnectionTimeoutNs());
        StunMessageWriter writer = engine.responder.start(
                StunMethod.CONNECT,
                StunClass.SUCCESS_RESPONSE,
                connection.connectAnswer().tidHigh(),
                connection.connectAnswer().tidLow());
        ConnectionId.write(writer, connection.connectionId());
        engine.responder.finishSigned(connection.owner().endpoint(), connection.connectAnswer(), nowNs);
    }

    /**
     * A peer connected to the relayed address of the TCP allocation with listener {@code listenerRelayId}
     * (§5.3). Returns the relay id the transport keeps the new connection under, or -1 to close it.
     */
    public int onPeerConnectionAccepted(int listenerRelayId, TransportAddress from, long nowNs) {
        Allocation allocation = engine.allocations.byRelayId(listenerRelayId);
        // §5.3: only peers with a permission may connect in; Tern also applies its peer policy,
        // refuses a second connection from the same address, and bounds the count.
        if (allocation == null
                || allocation.isOpening()
                || allocation.relayProtocol() != RequestedTransport.TCP
                || allocation.permission(from) == null
                || !engine.peerPolicy().permits(from)
                || allocation.peerConnection(from) != null
                || allocation.peerConnectionCount() >= engine.config.maxPeerConnections()) {
            engine.counters.drop(DropReason.PEER_CONNECTION_REFUSED);
            return -1;
        }
        int relayId = engine.newRelayId();
        PeerConnection connection = engine.peerConnections.add(
                allocation, relayId, engine.newConnectionId(), from, PeerConnection.State.AWAITING_BIND);
        engine.timers.schedule(connection, nowNs + engine.config.peerConnectionTimeoutNs());
        // §5.3: a ConnectionAttempt indication with the CONNECTION-ID and the peer's address.
        StunMessageWriter writer = engine.responder.start(
                StunMethod.CONNECTION_ATTEMPT, StunClass.INDICATION, engine.random.nextInt(), engine.random.nextLong());
        ConnectionId.write(writer, connection.connectionId());
        writer.putXorAddress(AttributeType.XOR_PEER_ADDRESS, from);
        engine.responder.finishUnsigned(allocation.endpoint(), false);
        return relayId;
    }

    /** The peer side closed (or failed) before or after it was bound. */
    public void onPeerConnectionClosed(PeerConnection connection, long nowNs) {
        if (connection.state() == PeerConnection.State.CONNECTING) {
            failConnect(connection, nowNs);
            return;
        }
        engine.timers.cancel(connection);
        engine.peerConnections.remove(connection);
    }

    /** The connection's timer fired: a Connect that took too long (447), or no ConnectionBind in time. */
    public void onTimeout(PeerConnection connection, long nowNs) {
        if (connection.state() == PeerConnection.State.CONNECTING) {
            failConnect(connection, nowNs);
        } else if (connection.state() == PeerConnection.State.AWAITING_BIND) {
            engine.closePeerConnection(connection);
        }
    }

    /** §5.2: 447 Connection Timeout or Failure, and the attempt is abandoned. */
    private void failConnect(PeerConnection connection, long nowNs) {
        engine.counters.error(ErrorCode.CONNECTION_TIMEOUT_OR_FAILURE);
        engine.responder.startError(
                StunMethod.CONNECT,
                connection.connectAnswer().tidHigh(),
                connection.connectAnswer().tidLow(),
                ErrorCode.CONNECTION_TIMEOUT_OR_FAILURE);
        engine.responder.finishSigned(connection.owner().endpoint(), connection.connectAnswer(), nowNs);
        engine.closePeerConnection(connection);
    }
}
