package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.json.JsonWriter;
import io.tern.nostr.message.NostrMessages;
import java.util.ArrayDeque;
import java.util.List;

/** The engine's output queue and the messages it writes into it; the adapter drains it. */
final class Outbox {
    private final ArrayDeque<NostrOutput> queue = new ArrayDeque<>();
    private final JsonWriter writer = new JsonWriter(1024);
    private final NostrCounters counters;

    Outbox(NostrCounters counters) {
        this.counters = counters;
    }

    NostrOutput poll() {
        return queue.pollFirst();
    }

    int size() {
        return queue.size();
    }

    JsonWriter writer() {
        return writer;
    }

    void ok(Connection c, String eventId, boolean accepted, String message) {
        send(c, NostrMessages.ok(writer, eventId, accepted, message));
    }

    void closed(Connection c, String subscriptionId, String message) {
        send(c, NostrMessages.closed(writer, subscriptionId, message));
    }

    void eose(Connection c, String subscriptionId) {
        send(c, NostrMessages.eose(writer, subscriptionId));
    }

    void notice(Connection c, String message) {
        NostrCounters.inc(counters.notices);
        send(c, NostrMessages.notice(writer, message));
    }

    void count(Connection c, String subscriptionId, long count) {
        send(c, NostrMessages.count(writer, subscriptionId, count));
    }

    void authChallenge(Connection c) {
        send(c, NostrMessages.authChallenge(writer, c.challenge));
    }

    /** {@code ["EVENT",<subscription id>,<event>]} without copying the event's JSON. */
    void event(Subscription s, SerializedEvent e) {
        queue.addLast(new NostrOutput.Send(s.connection.id, s.eventHead, e.json(), NostrMessages.eventTail()));
    }

    /** {@code e} to the first {@code count} of {@code recipients}: one output, two arrays. */
    void broadcast(List<Subscription> recipients, int count, SerializedEvent e) {
        long[] ids = new long[count];
        byte[][] heads = new byte[count][];
        for (int i = 0; i < count; i++) {
            Subscription s = recipients.get(i);
            ids[i] = s.connection.id;
            heads[i] = s.eventHead;
        }
        queue.addLast(new NostrOutput.Broadcast(ids, heads, e.json(), NostrMessages.eventTail()));
    }

    void disconnect(long connectionId, int closeCode, String reason) {
        queue.addLast(new NostrOutput.Disconnect(connectionId, closeCode, reason));
    }

    void publish(Event e) {
        queue.addLast(new NostrOutput.Publish(e));
    }

    void storeWrite(long requestId, Event e) {
        queue.addLast(new NostrOutput.StoreWrite(requestId, e));
    }

    void storeQuery(long requestId, List<Filter> filters, long nowSeconds) {
        queue.addLast(new NostrOutput.StoreQuery(requestId, filters, nowSeconds));
    }

    void storeCount(long requestId, List<Filter> filters, long nowSeconds) {
        queue.addLast(new NostrOutput.StoreCount(requestId, filters, nowSeconds));
    }

    void storeCancel(long requestId) {
        queue.addLast(new NostrOutput.StoreCancel(requestId));
    }

    void storePurge(long nowSeconds) {
        queue.addLast(new NostrOutput.StorePurge(nowSeconds));
    }

    private void send(Connection c, byte[] message) {
        queue.addLast(new NostrOutput.Send(c.id, message, NostrOutput.Send.NONE, NostrOutput.Send.NONE));
    }
}
