package io.tern.netty.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.netty.websocket.WebSocketConnection;
import io.tern.netty.websocket.WebSocketListener;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A test client over Tern's own WebSocket client: sends text, queues what it receives. */
final class NostrClient implements WebSocketListener, AutoCloseable {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocketConnection connection;
    /** The NIP-42 challenge the relay sent first. */
    final String challenge;

    NostrClient(WebSocketClient client, URI uri) throws Exception {
        this(client, uri, true);
    }

    private NostrClient(WebSocketClient client, URI uri, boolean challenged) throws Exception {
        this.connection = client.connect(uri, this).get(10, TimeUnit.SECONDS);
        if (challenged) {
            String first = next();
            assertThat(first).startsWith("[\"AUTH\",\"");
            this.challenge = first.substring(9, first.length() - 2);
        } else {
            this.challenge = null;
        }
    }

    /** A connection that expects no challenge (the relay turns it away). */
    static NostrClient unchallenged(WebSocketClient client, URI uri) throws Exception {
        return new NostrClient(client, uri, false);
    }

    void sendBinary(byte[] bytes) {
        connection.eventLoop().execute(() -> connection.sendBinary(bytes, 0, bytes.length));
    }

    void send(String text) {
        connection.eventLoop().execute(() -> connection.sendText(text));
    }

    /** The next message, failing after 10 s. */
    String next() throws InterruptedException {
        String message = received.poll(10, TimeUnit.SECONDS);
        assertThat(message).as("a message within 10 s").isNotNull();
        return message;
    }

    /** Skips messages until one starts with {@code prefix}. */
    String next(String prefix) throws InterruptedException {
        for (int i = 0; i < 100_000; i++) {
            String message = next();
            if (message.startsWith(prefix)) {
                return message;
            }
        }
        throw new AssertionError("no message starting with " + prefix);
    }

    @Override
    public void onMessage(WebSocketConnection from, boolean text, byte[] buf, int offset, int length) {
        received.add(new String(buf, offset, length, StandardCharsets.UTF_8));
    }

    @Override
    public void onClose(WebSocketConnection from, int code, String reason) {
        closed.complete(code);
    }

    @Override
    public void close() {
        connection.eventLoop().execute(() -> connection.close(1000, "bye"));
    }
}
