package io.tern.server.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.tern.netty.nostr.NostrRelay;
import io.tern.nostr.engine.RelayCounters;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Prometheus collectors over a Nostr relay's counters ({@link RelayCounters}, and the SQLite
 * store's), read at scrape time: the relay does no work for metrics beyond its counters. Labels
 * take bounded values only (the NIP-01 prefixes, fixed event names); nothing per client or pubkey.
 */
public final class NostrMetrics {
    private static final Prefix[] PREFIXES = Prefix.values();

    private final NostrRelay relay;

    public NostrMetrics(NostrRelay relay) {
        this.relay = Objects.requireNonNull(relay, "relay");
    }

    /** Registers every {@code tern_nostr_*} collector with {@code registry}. */
    public void register(PrometheusRegistry registry) {
        RelayCounters c = relay.counters();
        gauge(registry, "tern_nostr_connections_open", "Nostr client connections open now", relay::openConnections);
        CounterWithCallback.builder()
                .name("tern_nostr_connection_events")
                .help("Nostr connections opened, refused (per-IP limit), closed, and cut off as slow readers")
                .labelNames("event")
                .callback(cb -> {
                    cb.call(c.connectionsOpened(), "opened");
                    cb.call(c.connectionsRefused(), "refused");
                    cb.call(c.connectionsClosed(), "closed");
                    cb.call(c.slowReaderDisconnects(), "slow_reader");
                })
                .register(registry);
        gauge(registry, "tern_nostr_subscriptions_open", "REQ subscriptions open now", c::subscriptionsOpen);
        CounterWithCallback.builder()
                .name("tern_nostr_subscriptions")
                .help("REQ subscriptions opened, and refused (limits, rate, auth, bad filters)")
                .labelNames("result")
                .callback(cb -> {
                    cb.call(c.subscriptionsOpened(), "opened");
                    cb.call(c.subscriptionsRefused(), "refused");
                })
                .register(registry);
        counter(
                registry,
                "tern_nostr_events_received",
                "EVENT messages that parsed as events",
                c,
                RelayCounters::eventsReceived);
        counter(registry, "tern_nostr_events_stored", "Events committed to the store", c, RelayCounters::eventsStored);
        counter(
                registry,
                "tern_nostr_events_ephemeral",
                "Ephemeral events accepted (broadcast, never stored)",
                c,
                RelayCounters::eventsEphemeral);
        counter(
                registry,
                "tern_nostr_events_broadcast",
                "Events fanned out to live subscribers",
                c,
                RelayCounters::eventsBroadcast);
        CounterWithCallback.builder()
                .name("tern_nostr_events_rejected")
                .help("EVENTs answered OK false, or OK true with duplicate:, by the answer's NIP-01 prefix")
                .labelNames("reason")
                .callback(cb -> {
                    for (Prefix prefix : PREFIXES) {
                        cb.call(c.eventsRejected(prefix), prefix.word().replace('-', '_'));
                    }
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("tern_nostr_deliveries")
                .help("EVENT messages sent to subscribers, from live broadcasts and from stored results")
                .labelNames("source")
                .callback(cb -> {
                    cb.call(c.liveDeliveries(), "live");
                    cb.call(c.storedDeliveries(), "stored");
                })
                .register(registry);
        registry.register(() -> querySeconds(c));
        counter(
                registry,
                "tern_nostr_query_timeouts",
                "REQs whose stored phase was cut short at query-timeout-ms",
                c,
                RelayCounters::queriesTimedOut);
        counter(registry, "tern_nostr_counts", "NIP-45 COUNT requests answered", c, RelayCounters::counts);
        CounterWithCallback.builder()
                .name("tern_nostr_auth")
                .help("NIP-42 AUTH messages accepted and rejected")
                .labelNames("result")
                .callback(cb -> {
                    cb.call(c.authAccepted(), "accepted");
                    cb.call(c.authRejected(), "rejected");
                })
                .register(registry);
        counter(registry, "tern_nostr_notices", "NOTICE messages sent", c, RelayCounters::notices);
        counter(
                registry,
                "tern_nostr_internal_errors",
                "Inputs that hit a bug (answered with error:, never thrown)",
                c,
                RelayCounters::internalErrors);
        if (relay.store() instanceof SqliteEventStore sqlite) {
            CounterWithCallback.builder()
                    .name("tern_nostr_store_events")
                    .help("SQLite store: events committed, events purged (NIP-40), batches committed, batches failed")
                    .labelNames("event")
                    .callback(cb -> {
                        cb.call(sqlite.committedEvents(), "committed");
                        cb.call(sqlite.purgedEvents(), "purged");
                        cb.call(sqlite.committedBatches(), "batch_committed");
                        cb.call(sqlite.failedBatches(), "batch_failed");
                    })
                    .register(registry);
        }
    }

    /** Time from REQ to EOSE, in the engine's buckets. */
    private static HistogramSnapshot querySeconds(RelayCounters c) {
        long[] bounds = RelayCounters.QUERY_TIME_BOUNDS_NS;
        double[] upper = new double[bounds.length + 1];
        for (int i = 0; i < bounds.length; i++) {
            upper[i] = bounds[i] / 1e9;
        }
        upper[bounds.length] = Double.POSITIVE_INFINITY;
        return HistogramSnapshot.builder()
                .name("tern_nostr_query_seconds")
                .help("Time from a REQ to its EOSE (the stored phase)")
                .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(upper, c.queryTimeBuckets()))
                        .sum(c.queryTimeNs() / 1e9)
                        .build())
                .build();
    }

    private static void gauge(PrometheusRegistry registry, String name, String help, LongSupplier value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.getAsLong()))
                .register(registry);
    }

    private static void counter(
            PrometheusRegistry registry,
            String name,
            String help,
            RelayCounters c,
            ToLongFunction<RelayCounters> value) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.applyAsLong(c)))
                .register(registry);
    }
}
