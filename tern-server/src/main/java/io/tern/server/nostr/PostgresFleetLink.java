package io.tern.server.nostr;

import io.tern.netty.nostr.NostrRelay;
import io.tern.nostr.bus.ForeignEvent;
import io.tern.nostr.bus.PostgresEventBus;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventParser;
import io.tern.nostr.event.ParsedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.json.Json;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletionSink;
import io.tern.nostr.store.postgres.PostgresEventStore;
import io.tern.nostr.store.postgres.PostgresStoreConfig;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JsonParser;

/**
 * The one seam between a relay and the other nodes on its PostgreSQL database, on the engine that
 * holds its store: the store the engine calls is the shared {@link PostgresEventStore}, the
 * ephemeral events the engine accepts ({@link EventStore#ephemeral}) go out on the
 * {@link PostgresEventBus}, and what the bus brings in (each other node's event once, never this
 * node's own) goes to the relay's live subscriptions ({@link NostrRelay#onPeerEvent}). When the
 * engine emits its store requests and ephemeral events as outputs, this class reduces to wiring
 * those outputs to the store and the bus.
 */
public final class PostgresFleetLink implements EventStore {
    /** How often the bus reads by sequence id when no notification comes. */
    static final long BUS_POLL_MS = 5_000;

    private final PostgresEventStore store;
    private final PostgresEventBus bus;
    private final AtomicLong unreadable = new AtomicLong();
    private volatile NostrRelay relay;

    private PostgresFleetLink(PostgresStoreConfig config, boolean nip09, StoreCompletionSink sink) throws SQLException {
        this.store = PostgresEventStore.open(config, nip09, sink, System::nanoTime);
        this.bus = PostgresEventBus.start(
                config, store.backend().origin(), this::deliver, System::currentTimeMillis, BUS_POLL_MS);
    }

    /** Opens the shared store and starts the bus; events arriving before {@link #attach} have no subscriber yet. */
    static PostgresFleetLink open(PostgresStoreConfig config, boolean nip09, StoreCompletionSink sink)
            throws SQLException {
        return new PostgresFleetLink(config, nip09, sink);
    }

    /** The relay whose live subscriptions the bus's events go to. */
    void attach(NostrRelay relay) {
        this.relay = relay;
    }

    public PostgresEventStore store() {
        return store;
    }

    public PostgresEventBus bus() {
        return bus;
    }

    /** Events from the bus that did not parse (a node of another version): dropped, counted. */
    public long unreadable() {
        return unreadable.get();
    }

    /** On the bus's thread. The node that accepted the event verified it; here it is only parsed to be matched. */
    private void deliver(ForeignEvent foreign) {
        NostrRelay target = relay;
        if (target == null) {
            return;
        }
        byte[] json = foreign.json();
        try (JsonParser p = Json.parser(json, 0, json.length)) {
            p.nextToken();
            ParsedEvent parsed = EventParser.parse(p);
            if (parsed.isValid()) {
                target.onPeerEvent(parsed.event());
                return;
            }
        } catch (RuntimeException malformed) {
            // counted below
        }
        unreadable.incrementAndGet();
    }

    @Override
    public void write(long requestId, Event event) {
        store.write(requestId, event);
    }

    @Override
    public void query(long requestId, List<Filter> filters, long nowSeconds) {
        store.query(requestId, filters, nowSeconds);
    }

    @Override
    public void count(long requestId, List<Filter> filters, long nowSeconds) {
        store.count(requestId, filters, nowSeconds);
    }

    @Override
    public void cancel(long requestId) {
        store.cancel(requestId);
    }

    @Override
    public void purgeExpired(long nowSeconds) {
        store.purgeExpired(nowSeconds);
    }

    @Override
    public void ephemeral(Event event) {
        bus.publishEphemeral(event);
    }

    /** The bus first, so nothing is delivered to a relay whose store is closing. */
    @Override
    public void close() {
        bus.close();
        store.close();
    }
}
