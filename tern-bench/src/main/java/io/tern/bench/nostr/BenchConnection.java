package io.tern.bench.nostr;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.netty.websocket.WebSocketConnection;
import io.tern.netty.websocket.WebSocketListener;
import java.net.URI;
import java.util.concurrent.CompletableFuture;

/**
 * One client connection of the load generator, on Tern's own WebSocket client (Netty, epoll).
 * What it receives goes to a {@link Handler} on the connection's event loop; nothing is decoded
 * beyond what the phase needs.
 */
final class BenchConnection implements WebSocketListener {
    /** What a phase does with a received message (valid only during the call). */
    @FunctionalInterface
    interface Handler {
        void onMessage(BenchConnection connection, byte[] buf, int offset, int length);
    }

    private volatile Handler handler = (c, b, o, l) -> {};
    private WebSocketConnection connection;
    final CompletableFuture<BenchConnection> challenged = new CompletableFuture<>();
    volatile boolean closed;

    /**
     * Connects; completes once the connection is ready: after the relay's NIP-42 challenge when
     * {@code greets} (Tern sends one at once), else as soon as it is open.
     */
    static CompletableFuture<BenchConnection> open(WebSocketClient client, URI uri, boolean greets) {
        BenchConnection bench = new BenchConnection();
        return client.connect(uri, bench).thenCompose(connection -> {
            bench.connection = connection;
            if (!greets) {
                bench.challenged.complete(bench);
            }
            return bench.challenged;
        });
    }

    void handler(Handler next) {
        this.handler = next;
    }

    /** Sends on the connection's loop; may be called from any thread. */
    void send(byte[] message) {
        if (connection.eventLoop().inEventLoop()) {
            connection.send(true, message, 0, message.length);
        } else {
            connection.eventLoop().execute(() -> connection.send(true, message, 0, message.length));
        }
    }

    void close() {
        connection.eventLoop().execute(() -> connection.close(1000, "done"));
    }

    @Override
    public void onMessage(WebSocketConnection from, boolean text, byte[] buf, int offset, int length) {
        if (startsWith(buf, offset, length, AUTH)) {
            challenged.complete(this);
            return;
        }
        handler.onMessage(this, buf, offset, length);
    }

    @Override
    public void onClose(WebSocketConnection from, int code, String reason) {
        closed = true;
        challenged.completeExceptionally(new IllegalStateException("closed " + code + " " + reason));
    }

    static final byte[] AUTH = ascii("[\"AUTH\"");
    static final byte[] OK_TRUE_PREFIX = ascii("[\"OK\",\"");
    static final byte[] EVENT = ascii("[\"EVENT\"");
    static final byte[] EOSE = ascii("[\"EOSE\"");

    static byte[] ascii(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    static boolean startsWith(byte[] buf, int offset, int length, byte[] prefix) {
        if (length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buf[offset + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
