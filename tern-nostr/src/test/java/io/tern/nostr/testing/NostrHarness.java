package io.tern.nostr.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.engine.Admission;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.engine.NostrEngine;
import io.tern.nostr.engine.NostrOutput;
import io.tern.nostr.event.Event;
import io.tern.nostr.store.MemoryEventStore;
import io.tern.nostr.store.MemoryEvents;
import io.tern.nostr.store.StoreCompletion;
import io.tern.testkit.FakeClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A relay engine over the in-memory store, driven by hand on a fake clock, the way an adapter
 * drives it: after each input the outputs are drained, the store requests among them handed to
 * the store as the adapter hands them; the store's work runs when the test says
 * ({@link #settle()}, automatically unless {@link #autoSettle} is off) and its completions go back
 * in as inputs.
 */
public final class NostrHarness {
    public final FakeClock clock = new FakeClock();
    public final MemoryEvents events;
    public final ArrayDeque<StoreCompletion> completions = new ArrayDeque<>();
    public final MemoryEventStore store;
    public final NostrEngine engine;
    public boolean autoSettle = true;
    /** Every send drained, in order (a broadcast's as one per recipient), for tests of the outputs. */
    public final List<NostrOutput.Send> sends = new ArrayList<>();

    /** Every broadcast drained, in order. */
    public final List<NostrOutput.Broadcast> broadcasts = new ArrayList<>();

    /** Every store request drained, in order, for tests of the store outputs. */
    public final List<NostrOutput.StoreRequest> storeRequests = new ArrayList<>();

    /** Every event published for the fleet's bus, in order. */
    public final List<Event> published = new ArrayList<>();

    private final Map<Long, List<String>> received = new HashMap<>();
    private final Map<Long, NostrOutput.Disconnect> disconnects = new HashMap<>();
    private long nextConnection = 1;

    public NostrHarness(NostrConfig config) {
        this(config, new MemoryEvents());
    }

    public NostrHarness(NostrConfig config, MemoryEvents backing) {
        events = backing;
        store = new MemoryEventStore(backing, completions::add);
        engine = new NostrEngine(config, Keys.secp(), clock::epochSeconds, new Random(7), clock.nowNs());
    }

    public static NostrHarness withDefaults() {
        return new NostrHarness(NostrConfig.defaults());
    }

    /** Opens a connection from {@code ip} to host {@code relay.test:7777}; returns its id. */
    public long connect(String ip) {
        long id = nextConnection++;
        assertThat(open(id, ip, "relay.test:7777")).isEqualTo(Admission.ACCEPTED);
        return id;
    }

    public long connect() {
        return connect("192.0.2.1");
    }

    /** A connection from {@code ip} whose AUTH challenge has been read. */
    public long client(String ip) {
        long id = connect(ip);
        take(id);
        return id;
    }

    /** A client with one subscription open, its answers (EOSE, stored events) read. */
    public long subscriber(String ip, String subscriptionId, String filters) {
        long id = client(ip);
        send(id, "[\"REQ\",\"" + subscriptionId + "\"," + filters + "]");
        take(id);
        return id;
    }

    /** Publishes and returns the one answer, the OK. */
    public List<Object> publishOk(long connection, Event e) {
        publish(connection, e);
        return takeOne(connection);
    }

    /** The ids a REQ with {@code filter} returns from the store, in order (the subscription is closed after). */
    public List<Object> storedIds(long connection, String filter) {
        send(connection, "[\"REQ\",\"stored\"," + filter + "]");
        List<Object> ids = new ArrayList<>();
        for (List<Object> m : takeParsed(connection)) {
            if (m.get(0).equals("EVENT")) {
                ids.add(((Map<?, ?>) m.get(2)).get("id"));
            }
        }
        send(connection, "[\"CLOSE\",\"stored\"]");
        return ids;
    }

    public Admission open(long id, String ip, String host) {
        Admission a = engine.onOpen(id, ip, host, clock.nowNs());
        drain();
        return a;
    }

    public void send(long connection, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        engine.onMessage(connection, b, 0, b.length, clock.nowNs());
        drain();
        if (autoSettle) {
            settle();
        }
    }

    public void publish(long connection, Event e) {
        send(connection, Keys.eventMessage(e));
    }

    public void close(long connection) {
        engine.onClose(connection, clock.nowNs());
        drain();
    }

    /** Runs the store until it has nothing left, feeding every completion to the engine. */
    public void settle() {
        do {
            store.runPending();
            deliver();
        } while (store.pendingRequests() > 0 || !completions.isEmpty());
    }

    /** Feeds the completions already emitted to the engine. */
    public void deliver() {
        StoreCompletion c;
        while ((c = completions.poll()) != null) {
            engine.onStoreCompletion(c, clock.nowNs());
            drain();
        }
    }

    /** Moves the clock, then runs the engine's timers as an event loop would. */
    public void advanceMillis(long ms) {
        clock.advanceMillis(ms);
        if (clock.nowNs() >= engine.nextDeadlineNs()) {
            engine.onTimeout(clock.nowNs());
            drain();
        }
        if (autoSettle) {
            settle();
        }
    }

    public void drain() {
        NostrOutput o;
        while ((o = engine.poll()) != null) {
            switch (o) {
                case NostrOutput.Send s -> received(s);
                case NostrOutput.Broadcast b -> {
                    broadcasts.add(b);
                    for (int i = 0; i < b.recipients(); i++) {
                        received(b.sendTo(i));
                    }
                }
                case NostrOutput.Disconnect d -> disconnects.put(d.connectionId(), d);
                case NostrOutput.Publish p -> published.add(p.event());
                case NostrOutput.StoreRequest r -> {
                    storeRequests.add(r);
                    r.carryOut(store);
                }
            }
        }
    }

    private void received(NostrOutput.Send s) {
        sends.add(s);
        received.computeIfAbsent(s.connectionId(), k -> new ArrayList<>()).add(s.text());
    }

    /** Every message sent to the connection since the last call, as text. */
    public List<String> take(long connection) {
        List<String> l = received.remove(connection);
        return l == null ? List.of() : l;
    }

    /** Every message sent to the connection since the last call, parsed. */
    public List<List<Object>> takeParsed(long connection) {
        return take(connection).stream().map(TestJson::array).toList();
    }

    /** The one message expected, parsed. */
    public List<Object> takeOne(long connection) {
        List<List<Object>> l = takeParsed(connection);
        assertThat(l).as("messages to connection %d", connection).hasSize(1);
        return l.get(0);
    }

    public NostrOutput.Disconnect disconnect(long connection) {
        return disconnects.get(connection);
    }

    /** The AUTH challenge the connection received when it opened. */
    public String challengeOf(List<Object> authMessage) {
        assertThat(authMessage.get(0)).isEqualTo("AUTH");
        return (String) authMessage.get(1);
    }
}
