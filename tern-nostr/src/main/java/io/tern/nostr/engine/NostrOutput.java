package io.tern.nostr.engine;

import java.nio.charset.StandardCharsets;

/** What the engine asks of the adapter, drained with {@link NostrEngine#poll()} after every input. */
public sealed interface NostrOutput {
    long connectionId();

    /**
     * Send one text message: the bytes of {@code head}, {@code body} and {@code tail} in that
     * order, UTF-8. For an event {@code body} is the event's JSON; for other messages {@code body}
     * and {@code tail} are empty. The arrays are shared: never modify them.
     *
     * <p>A broadcast is stated, not left to be guessed: the engine queues the sends of one event
     * to its n live subscriptions one after another, all with the same {@code body}, and {@code
     * broadcastLeft} counts them down from n at the first to 1 at the last. An adapter can copy
     * the body once at the first, let every frame share the copy, and release it after the last.
     * A message to one connection (and a stored event answering a query) has 0.
     */
    record Send(long connectionId, byte[] head, byte[] body, byte[] tail, int broadcastLeft) implements NostrOutput {
        static final byte[] NONE = new byte[0];

        public int length() {
            return head.length + body.length + tail.length;
        }

        /** The message as one new array. */
        public byte[] toByteArray() {
            byte[] out = new byte[length()];
            System.arraycopy(head, 0, out, 0, head.length);
            System.arraycopy(body, 0, out, head.length, body.length);
            System.arraycopy(tail, 0, out, head.length + body.length, tail.length);
            return out;
        }

        public String text() {
            return new String(toByteArray(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Close the connection (WebSocket close {@code closeCode}, then the socket). The engine has
     * already forgotten it: do not report it with {@link NostrEngine#onClose}.
     */
    record Disconnect(long connectionId, int closeCode, String reason) implements NostrOutput {}
}
