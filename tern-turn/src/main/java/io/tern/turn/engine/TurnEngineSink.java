package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import org.agrona.DirectBuffer;

/**
 * Where the engine's output goes. Implementations must copy or send the bytes before returning:
 * the engine reuses its buffers for the next message.
 */
public interface TurnEngineSink {
    /** No connection: the client is reached over a UDP listener at {@code client}. */
    long NO_CONNECTION = 0;

    /**
     * A STUN message or ChannelData for a client, over the listener (and, on TCP or TLS, the
     * connection) its requests arrived on. Stream transports pad ChannelData to 4 bytes themselves.
     */
    void sendToClient(
            int listenerId, long connectionId, TransportAddress client, DirectBuffer buffer, int offset, int length);

    /** Relayed application data for a peer, from the relay socket {@code relayId}. */
    void sendToPeer(int relayId, TransportAddress peer, DirectBuffer buffer, int offset, int length);
}
