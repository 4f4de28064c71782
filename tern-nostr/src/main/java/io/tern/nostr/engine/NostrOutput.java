package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the engine asks of the adapter, drained with {@link NostrEngine#poll()} after every input:
 * messages to send, connections to close, ephemeral events for the fleet's bus ({@link Publish}),
 * and work for the store ({@link StoreRequest}), whose answers come back as {@link
 * NostrEngine#onStoreCompletion} inputs.
 */
public sealed interface NostrOutput {

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

    /**
     * An ephemeral event this node accepted from a client and broadcast here: the fleet's bus
     * carries it to the other nodes, which hand it to their engines as {@link
     * NostrEngine#onPeerEvent}. Stored events are not published: the bus reads them from the
     * shared store by sequence id. A node with no bus ignores this output. The event is shared:
     * never modify it.
     */
    record Publish(Event event) implements NostrOutput {}

    /**
     * Work for the store, which the adapter hands to its {@link EventStore} ({@link #carryOut}).
     * Each request's {@link StoreCompletion}s go back to {@link NostrEngine#onStoreCompletion} on
     * the engine's thread, as TURN's OPEN_RELAY comes back as {@code onRelayOpened}.
     */
    sealed interface StoreRequest extends NostrOutput {
        /** Passes the request to {@code store}, which returns at once and answers later. */
        void carryOut(EventStore store);
    }

    /**
     * Store an event whose id and signature are verified. One {@link StoreCompletion.Written}
     * answers it, after the commit; the client's OK waits for it.
     */
    record StoreWrite(long requestId, Event event) implements StoreRequest {
        @Override
        public void carryOut(EventStore store) {
            store.write(requestId, event);
        }
    }

    /** Run a REQ's stored phase: {@link StoreCompletion.QueryBatch}es answer it, the last marked done. */
    record StoreQuery(long requestId, List<Filter> filters, long nowSeconds) implements StoreRequest {
        @Override
        public void carryOut(EventStore store) {
            store.query(requestId, filters, nowSeconds);
        }
    }

    /** Count for a COUNT (NIP-45): one {@link StoreCompletion.Counted} answers it. */
    record StoreCount(long requestId, List<Filter> filters, long nowSeconds) implements StoreRequest {
        @Override
        public void carryOut(EventStore store) {
            store.count(requestId, filters, nowSeconds);
        }
    }

    /** Stop a query or count the engine no longer waits for; its late answers are ignored. */
    record StoreCancel(long requestId) implements StoreRequest {
        @Override
        public void carryOut(EventStore store) {
            store.cancel(requestId);
        }
    }

    /** Delete the events whose NIP-40 expiration is at or before {@code nowSeconds}; nothing answers. */
    record StorePurge(long nowSeconds) implements StoreRequest {
        @Override
        public void carryOut(EventStore store) {
            store.purgeExpired(nowSeconds);
        }
    }
}
