package io.tern.netty.nostr;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.tern.netty.websocket.WebSocketConnection;
import io.tern.netty.websocket.WebSocketListener;
import io.tern.nostr.engine.CheckedMessage;

/**
 * One client of the relay: the WebSocket listener of its connection. Everything it hears goes to
 * the {@link NostrRelay}, directly when the connection lives on the engine's loop; when it lives
 * on another, its message is decoded and its event's signature verified there, on this
 * connection's loop, and the checked message handed to the engine's loop as a task.
 */
final class NostrConnection implements WebSocketListener {
    private final NostrRelay relay;
    private final long maxOutboundBytes;
    private WebSocketConnection connection;
    private EventLoop loop;
    private boolean onEngineLoop;

    NostrConnection(NostrRelay relay) {
        this.relay = relay;
        this.maxOutboundBytes = relay.config().maxOutboundBytes();
    }

    long id() {
        return connection.id();
    }

    WebSocketConnection connection() {
        return connection;
    }

    EventLoop loop() {
        return loop;
    }

    @Override
    public void onOpen(WebSocketConnection opened) {
        connection = opened;
        loop = opened.eventLoop();
        onEngineLoop = loop == relay.loop();
        relay.onOpen(this);
    }

    @Override
    public void onMessage(WebSocketConnection from, boolean text, byte[] buf, int offset, int length) {
        if (!text) {
            from.close(NostrRelay.CLOSE_UNSUPPORTED_DATA, "binary messages are not accepted");
            return;
        }
        if (onEngineLoop) {
            relay.onMessage(this, buf, offset, length);
        } else {
            CheckedMessage checked = relay.checker().check(buf, offset, length);
            relay.loop().execute(() -> relay.onMessage(this, checked));
        }
    }

    @Override
    public void onClose(WebSocketConnection closed, int code, String reason) {
        relay.onClose(this);
    }

    /** On this connection's loop: one message, then what is queued, when above the relay's cap. */
    void send(byte[] head, ByteBuf body, byte[] tail) {
        if (!connection.send(true, head, body, tail)) {
            return;
        }
        long queued = connection.queuedBytes();
        if (queued > maxOutboundBytes) {
            relay.onBacklog(this, queued);
        }
    }

    /** Closes the connection with {@code code}, on its own loop. */
    void closeOnItsLoop(int code, String reason) {
        if (loop.inEventLoop()) {
            connection.close(code, reason);
        } else {
            loop.execute(() -> connection.close(code, reason));
        }
    }
}
