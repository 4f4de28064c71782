package io.tern.websocket.netty;

/** Application callbacks, always on the connection's event loop. */
public interface WebSocketListener {
    default void onOpen(WebSocketConnection connection) {}

    /** {@code buf} is valid only during the call. */
    void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length);

    default void onClose(WebSocketConnection connection, int code, String reason) {}
}
