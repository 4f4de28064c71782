package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;

/**
 * Where a client message came from, and where an answer goes: the listener, the TCP/TLS
 * connection (or {@link #NO_CONNECTION} for UDP) and the client's transport address. A flyweight:
 * the transport fills one per input and the engine copies what it keeps.
 */
public final class ClientEndpoint {
    /** The client is reached over a UDP listener at {@link #address}. */
    public static final long NO_CONNECTION = 0;

    private final TransportAddress address = new TransportAddress();
    private int listenerId;
    private long connectionId;

    public ClientEndpoint set(int listenerId, long connectionId, TransportAddress address) {
        this.listenerId = listenerId;
        this.connectionId = connectionId;
        this.address.set(address);
        return this;
    }

    public ClientEndpoint set(ClientEndpoint other) {
        return set(other.listenerId, other.connectionId, other.address);
    }

    public int listenerId() {
        return listenerId;
    }

    /** The TCP or TLS connection, or {@link #NO_CONNECTION}. */
    public long connectionId() {
        return connectionId;
    }

    public boolean isStream() {
        return connectionId != NO_CONNECTION;
    }

    public TransportAddress address() {
        return address;
    }

    @Override
    public String toString() {
        return "listener " + listenerId + (isStream() ? " connection " + connectionId : "") + " " + address;
    }
}
