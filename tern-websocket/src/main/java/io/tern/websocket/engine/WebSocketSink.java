package io.tern.websocket.engine;

/**
 * Everything a {@link WebSocketEngine} produces. Byte arrays passed here belong to the engine and are
 * valid only during the call: copy what must outlive it.
 */
public interface WebSocketSink {
    /** Bytes to write to the transport, in order. */
    void transmit(byte[] buf, int offset, int length);

    /** The opening handshake succeeded; messages may be sent. */
    default void onOpen(WebSocketEngine engine) {}

    /** A complete message; text messages have already been validated as UTF-8. */
    void onMessage(WebSocketEngine engine, boolean text, byte[] buf, int offset, int length);

    default void onPong(WebSocketEngine engine, byte[] buf, int offset, int length) {}

    /**
     * The WebSocket connection is closed, cleanly or not. {@code code} is the peer's status code after
     * a close handshake, our code when we failed the connection, or {@link CloseCodes#ABNORMAL}.
     */
    default void onClose(WebSocketEngine engine, int code, String reason) {}

    /** The engine is done with the transport: flush what was transmitted, then close it. */
    void closeTransport();
}
