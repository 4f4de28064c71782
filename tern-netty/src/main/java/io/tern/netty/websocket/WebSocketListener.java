package io.tern.netty.websocket;

/**
 * What an application hears from one WebSocket connection, always on the connection's event loop.
 * One listener serves one connection (the {@link WebSocketAcceptor} makes a new one for each), so
 * it can hold that connection's state in its fields.
 *
 * <p>The connection may be used from any of these methods: sending or closing from
 * {@link #onMessage} is the normal way to answer. Nothing here is called from inside the engine.
 */
public interface WebSocketListener {
    /** The opening handshake completed; messages may be sent. */
    default void onOpen(WebSocketConnection connection) {}

    /**
     * A complete message. Text messages have been validated as UTF-8 already. The bytes are valid
     * only during the call (they are the engine's receive buffer): copy what must outlive it.
     */
    void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length);

    /** The answer to a {@link WebSocketConnection#ping}; the bytes are valid only during the call. */
    default void onPong(WebSocketConnection connection, byte[] buf, int offset, int length) {}

    /**
     * The peer stopped reading and what is queued for it passed the high water mark
     * ({@code writable} false), or it caught up again ({@code writable} true). While unwritable the
     * connection reads nothing from the peer, and it is closed if it stays so past the slow-reader
     * timeout or its queue passes the hard cap.
     */
    default void onWritabilityChanged(WebSocketConnection connection, boolean writable) {}

    /**
     * The connection is closed, cleanly or not; called once, and only after {@link #onOpen}.
     * {@code code} is the peer's status after a close handshake, ours when the connection was
     * failed, or 1006 when it ended without one (transport gone, peer too slow, timeout).
     */
    default void onClose(WebSocketConnection connection, int code, String reason) {}
}
