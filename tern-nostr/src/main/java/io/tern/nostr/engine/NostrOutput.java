package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the engine asks of the adapter, drained with {@link NostrEngine#poll()} after every input:
 * messages to send (to one connection, or one event to many: {@link Broadcast}), connections to close, ephemeral events for the fleet's bus ({@link Publish}),
 * and work for the store ({@link StoreRequest}), whose answers come back as {@link
 * NostrEngine#onStoreCompletion} inputs.
 */
public sealed interface NostrOutput {

    /**
     * Send one text message: the bytes of {@code head}, {@code body} and {@code tail} in that
     * order, UTF-8. For an event {@code body} is the event's JSON; for other messages {@code body}
     * and {@code tail} are empty. The arrays are shared: never modify them.
     */
    record Send(long connectionId, byte[] head, byte[] body, byte[] tail) implements NostrOutput {
        static final byte[] NONE = new byte[0];

        public int length() {
            return head.length + body.length + tail.length;
        }

        /** The message as one new array. */
        public byte[] toByteArray() {
            byte[] out = new byte[head.length + body.length + tail.length];
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
     * Send one event to its live subscriptions, once each: to connection {@code connectionIds[i]}
     * the bytes of {@code heads[i]} (its {@code ["EVENT","<subscription id>",}), {@code body} (the
     * event's JSON) and {@code tail}. A broadcast is stated, not left to be guessed: one output for
     * every recipient, so an adapter copies the body once, lets every frame share the copy and
     * releases it after the last. The arrays are shared: never modify them.
     */
    record Broadcast(long[] connectionIds, byte[][] heads, byte[] body, byte[] tail) implements NostrOutput {
        public int recipients() {
            return connectionIds.length;
        }

        /** What recipient {@code i} receives, as a {@link Send} (for tests and simple adapters). */
        public Send sendTo(int i) {
            return new Send(connectionIds[i], heads[i], body, tail);
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
