package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.timer.Expiring;

/**
 * One TCP connection between a TCP allocation's relayed address and a peer (RFC 6062 §5): opened
 * by a Connect request or accepted from the peer, then joined to a client data connection by
 * ConnectionBind. Its timer bounds the connect attempt and the wait for ConnectionBind (30 s each).
 */
public final class PeerConnection extends Expiring {
    public enum State {
        /** Connect sent to the transport; the Connect request is answered when it reports back. */
        CONNECTING,
        /** Connected (either way), CONNECTION-ID handed out, waiting for a ConnectionBind. */
        AWAITING_BIND,
        /** Joined to a client data connection: raw bytes flow, the engine only watches. */
        BOUND
    }

    final Allocation owner;
    final int relayId;
    final long connectionId;
    final TransportAddress peer;
    final PendingAnswer connectAnswer = new PendingAnswer();
    State state;
    long dataConnectionId;

    PeerConnection(Allocation owner, int relayId, long connectionId, TransportAddress peer, State state) {
        this.owner = owner;
        this.relayId = relayId;
        this.connectionId = connectionId;
        this.peer = peer.copy();
        this.state = state;
    }

    public Allocation owner() {
        return owner;
    }

    /** The transport's socket for this connection. */
    public int relayId() {
        return relayId;
    }

    /** The CONNECTION-ID value (RFC 6062 §6.2.1) that names it to the client. */
    public long connectionId() {
        return connectionId;
    }

    public TransportAddress peer() {
        return peer;
    }

    public State state() {
        return state;
    }

    /** The client data connection it is bound to, once {@link State#BOUND}. */
    public long dataConnectionId() {
        return dataConnectionId;
    }

    /** The Connect request to answer while {@link State#CONNECTING}. */
    public PendingAnswer connectAnswer() {
        return connectAnswer;
    }

    public void connected() {
        state = State.AWAITING_BIND;
    }

    public void bound(long dataConnectionId) {
        this.dataConnectionId = dataConnectionId;
        this.state = State.BOUND;
    }
}
