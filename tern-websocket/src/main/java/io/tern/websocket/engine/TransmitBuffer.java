package io.tern.websocket.engine;

import org.agrona.MutableDirectBuffer;

/**
 * Where a {@link WebSocketEngine} queues the bytes it transmits: handshake heads and whole frames,
 * in wire order. The adapter owns the storage (a pooled socket buffer) and drains it after each
 * call into the engine, so a frame is written once, header and payload together, and never
 * copied again on its way to the socket. An implementation does nothing but hand out memory: it
 * must not call back into the engine.
 */
public interface TransmitBuffer {
    /**
     * Reserves the next {@code bytes} bytes of the outgoing stream.
     *
     * @return a buffer whose indexes {@code [0, bytes)} are those bytes, valid until the next claim
     */
    MutableDirectBuffer claim(int bytes);
}
