package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;

/**
 * The engine's one window onto sockets: opening and closing relay sockets. Both calls complete
 * before they return, so the engine can answer an Allocate in the same step it received it.
 */
public interface RelaySockets {
    /**
     * Binds a UDP relay socket to {@code address} (IP and port).
     *
     * @return a relay id, zero or more, that later {@link TurnEngine#onPeerPacket} calls will carry;
     *         or -1 when the port can't be bound (taken by another process)
     */
    int open(TransportAddress address);

    void close(int relayId);
}
