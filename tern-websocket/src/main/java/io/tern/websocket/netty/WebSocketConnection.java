package io.tern.websocket.netty;

import io.tern.websocket.engine.WebSocketEngine;
import java.nio.charset.StandardCharsets;

/** One WebSocket connection over a Netty channel. Call its methods on the channel's event loop only. */
public final class WebSocketConnection {
    private final WebSocketChannelHandler handler;

    WebSocketConnection(WebSocketChannelHandler handler) {
        this.handler = handler;
    }

    public WebSocketEngine engine() {
        return handler.engine();
    }

    public io.netty.channel.Channel channel() {
        return handler.channel();
    }

    public boolean isOpen() {
        return handler.engine().state() == WebSocketEngine.State.OPEN;
    }

    /** Queues a message; false when the connection is not open or was closed for exceeding its send bound. */
    public boolean send(boolean text, byte[] buf, int offset, int length) {
        return handler.send(text, buf, offset, length);
    }

    public boolean sendText(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        return send(true, utf8, 0, utf8.length);
    }

    public boolean sendBinary(byte[] buf) {
        return send(false, buf, 0, buf.length);
    }

    public void close(int code, String reason) {
        handler.close(code, reason);
    }
}
