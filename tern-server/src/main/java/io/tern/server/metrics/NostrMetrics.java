package io.tern.server.metrics;

import static io.tern.server.metrics.MetricTable.labels;
import static io.tern.server.metrics.MetricTable.sample;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.tern.netty.nostr.NostrRelay;
import io.tern.nostr.bus.BusCounters;
import io.tern.nostr.engine.NostrCounters;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.store.postgres.PostgresEventStore;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.server.nostr.PostgresFleetLink;
import java.util.Objects;

/**
 * Prometheus collectors over a Nostr relay's counters ({@link NostrCounters}, and the SQLite
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
        NostrCounters c = relay.counters();
        new MetricTable(registry)
                .gauge("tern_nostr_connections_open", "Nostr client connections open now", relay::openConnections)
                .counter(
                        "tern_nostr_connection_events",
                        "Nostr connections opened, refused (per-IP limit), closed, and cut off as slow readers",
                        "event",
                        sample("opened", c::connectionsOpened),
                        sample("refused", c::connectionsRefused),
                        sample("closed", c::connectionsClosed),
                        sample("slow_reader", c::slowReaderDisconnects))
                .gauge("tern_nostr_subscriptions_open", "REQ subscriptions open now", c::subscriptionsOpen)
                .counter(
                        "tern_nostr_subscriptions",
                        "REQ subscriptions opened, and refused (limits, rate, auth, bad filters)",
                        "result",
                        sample("opened", c::subscriptionsOpened),
                        sample("refused", c::subscriptionsRefused))
                .counter("tern_nostr_events_received", "EVENT messages that parsed as events", c::eventsReceived)
                .counter("tern_nostr_events_stored", "Events committed to the store", c::eventsStored)
                .counter(
                        "tern_nostr_events_ephemeral",
                        "Ephemeral events accepted (broadcast, never stored)",
                        c::eventsEphemeral)
                .counter("tern_nostr_events_broadcast", "Events fanned out to live subscribers", c::eventsBroadcast)
                .counter(
                        "tern_nostr_events_rejected",
                        "EVENTs answered OK false, or OK true with duplicate:, by the answer's NIP-01 prefix",
                        labels("reason"),
                        sink -> {
                            for (Prefix prefix : PREFIXES) {
                                sink.sample(
                                        c.eventsRejected(prefix), prefix.word().replace('-', '_'));
                            }
                        })
                .counter(
                        "tern_nostr_deliveries",
                        "EVENT messages sent to subscribers, from live broadcasts and from stored results",
                        "source",
                        sample("live", c::liveDeliveries),
                        sample("stored", c::storedDeliveries));
        registry.register(() -> querySeconds(c));
        MetricTable table = new MetricTable(registry)
                .counter(
                        "tern_nostr_query_timeouts",
                        "REQs whose stored phase was cut short at query-timeout-ms",
                        c::queriesTimedOut)
                .counter("tern_nostr_counts", "NIP-45 COUNT requests answered", c::counts)
                .counter(
                        "tern_nostr_auth",
                        "NIP-42 AUTH messages accepted and rejected",
                        "result",
                        sample("accepted", c::authAccepted),
                        sample("rejected", c::authRejected))
                .counter("tern_nostr_notices", "NOTICE messages sent", c::notices)
                .counter(
                        "tern_nostr_internal_errors",
                        "Inputs that hit a bug (answered with error:, never thrown)",
                        c::internalErrors);
        if (relay.store() instanceof SqliteEventStore sqlite) {
            table.counter(
                    "tern_nostr_store_events",
                    "SQLite store: events committed, events purged (NIP-40), batches committed, batches failed",
                    "event",
                    sample("committed", sqlite::committedEvents),
                    sample("purged", sqlite::purgedEvents),
                    sample("batch_committed", sqlite::committedBatches),
                    sample("batch_failed", sqlite::failedBatches));
        }
        if (relay.store() instanceof PostgresFleetLink fleet) {
            PostgresEventStore pg = fleet.store();
            BusCounters bus = fleet.bus().counters();
            table.counter(
                            "tern_nostr_store_events",
                            "PostgreSQL store: events committed, events purged (NIP-40), batches committed, batches failed",
                            "event",
                            sample("committed", pg::committedEvents),
                            sample("purged", pg::purgedEvents),
                            sample("batch_committed", pg::committedBatches),
                            sample("batch_failed", pg::failedBatches))
                    .counter(
                            "tern_nostr_bus",
                            "The bus between nodes on PostgreSQL: notifications, reads by sequence id, events"
                                    + " delivered from other nodes, duplicates dropped, reconnects, ephemeral events"
                                    + " published and lost, events that did not parse",
                            "event",
                            sample("notification", bus::notifications),
                            sample("catch_up_read", bus::catchUpReads),
                            sample("delivered_stored", bus::deliveredStored),
                            sample("delivered_ephemeral", bus::deliveredEphemeral),
                            sample("duplicate", bus::duplicatesSuppressed),
                            sample("reconnect", bus::reconnects),
                            sample("ephemeral_published", bus::ephemeralPublished),
                            sample("ephemeral_lost", bus::ephemeralLost),
                            sample("unreadable", relay::malformedPeerEvents));
            registry.register(() -> busLagSeconds(bus));
        }
    }

    /** From commit (or publication) on another node to delivery here, in the bus's buckets. */
    private static HistogramSnapshot busLagSeconds(BusCounters bus) {
        long[] bounds = BusCounters.LAG_BOUNDS_MS;
        double[] upper = new double[bounds.length + 1];
        for (int i = 0; i < bounds.length; i++) {
            upper[i] = bounds[i] / 1e3;
        }
        upper[bounds.length] = Double.POSITIVE_INFINITY;
        return HistogramSnapshot.builder()
                .name("tern_nostr_bus_lag_seconds")
                .help("From commit (or publication) on another node to delivery to this node's engine")
                .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(upper, bus.lagBuckets()))
                        .sum(bus.lagSumMs() / 1e3)
                        .build())
                .build();
    }

    /** Time from REQ to EOSE, in the engine's buckets. */
    private static HistogramSnapshot querySeconds(NostrCounters c) {
        long[] bounds = NostrCounters.QUERY_TIME_BOUNDS_NS;
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
}
