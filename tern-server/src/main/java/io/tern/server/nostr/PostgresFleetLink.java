package io.tern.server.nostr;

import io.tern.netty.nostr.NostrRelay;
import io.tern.nostr.bus.ForeignEvent;
import io.tern.nostr.bus.PostgresEventBus;
import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletionSink;
import io.tern.nostr.store.postgres.PostgresEventStore;
import io.tern.nostr.store.postgres.PostgresStoreConfig;
import java.sql.SQLException;
import java.util.List;

/**
 * The one seam between a relay and the other nodes on its PostgreSQL database: the store that
 * carries out the engine's store outputs is the shared {@link PostgresEventStore}, the engine's
 * {@code Publish} outputs (ephemeral events a client of this node sent) go out on the
 * {@link PostgresEventBus} ({@link NostrRelay#publishTo}), and what the bus brings in (each other
 * node's event, never this node's own) goes to the engine's peer-event input
 * ({@link NostrRelay#onPeerEventJson}), which drops repeats by id.
 */
public final class PostgresFleetLink implements EventStore {
    /** How often the bus reads by sequence id when no notification comes. */
    static final long BUS_POLL_MS = 5_000;

    private final PostgresEventStore store;
    private final PostgresEventBus bus;
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

    /** The relay whose live subscriptions the bus's events go to, and whose ephemeral events the bus carries. */
    void attach(NostrRelay relay) {
        relay.publishTo(bus::publishEphemeral);
        this.relay = relay;
    }

    public PostgresEventStore store() {
        return store;
    }

    public PostgresEventBus bus() {
        return bus;
    }

    /** On the bus's thread: the node that accepted the event verified it; the relay parses it to match it. */
    private void deliver(ForeignEvent foreign) {
        NostrRelay target = relay;
        if (target != null) {
            target.onPeerEventJson(foreign.json());
        }
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

    /** The bus first, so nothing is delivered to a relay whose store is closing. */
    @Override
    public void close() {
        bus.close();
        store.close();
    }
}
