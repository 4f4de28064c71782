package io.tern.nostr.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.WriteOutcome;
import io.tern.nostr.store.postgres.PostgresEventStore;
import io.tern.nostr.store.postgres.PostgresStoreConfig;
import io.tern.nostr.store.postgres.TestDatabases;
import io.tern.nostr.testing.Keys;
import io.tern.testkit.Await;
import io.tern.testkit.PostgresProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one database, each a store and a bus: what one stores or publishes reaches the
 * other exactly once, never itself, also across a PostgreSQL killed and restarted under load.
 */
class PostgresEventBusTest {
    private static final long T = 1_700_000_000L;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private final Keys alice = Keys.fromSeed(1);

    /** A node: its store, its bus, and what the bus delivered. */
    private record Node(
            PostgresEventStore store,
            PostgresEventBus bus,
            LinkedBlockingQueue<StoreCompletion> completions,
            ConcurrentLinkedQueue<ForeignEvent> delivered)
            implements AutoCloseable {
        static Node open(PostgresStoreConfig config, long pollMs) throws Exception {
            LinkedBlockingQueue<StoreCompletion> completions = new LinkedBlockingQueue<>();
            ConcurrentLinkedQueue<ForeignEvent> delivered = new ConcurrentLinkedQueue<>();
            PostgresEventStore store = PostgresEventStore.open(config, true, completions::add, System::nanoTime);
            PostgresEventBus bus = PostgresEventBus.start(
                    config, store.backend().origin(), delivered::add, System::currentTimeMillis, pollMs);
            return new Node(store, bus, completions, delivered);
        }

        Map<String, Integer> deliveredTimes() {
            Map<String, Integer> times = new HashMap<>();
            for (ForeignEvent e : delivered) {
                times.merge(e.id(), 1, Integer::sum);
            }
            return times;
        }

        @Override
        public void close() {
            bus.close();
            store.close();
        }
    }

    @Test
    void anEventStoredOnOneNodeReachesTheOtherOnceAndNotItself() throws Exception {
        PostgresStoreConfig db = TestDatabases.fresh();
        try (Node a = Node.open(db, 5_000);
                Node b = Node.open(db, 5_000)) {
            Await.await("both buses listening", WAIT, () -> a.bus.listening() && b.bus.listening());
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                events.add(alice.sign(T + i, 1, List.of(), "from a " + i));
            }
            for (int i = 0; i < events.size(); i++) {
                a.store.write(i, events.get(i));
            }
            for (int i = 0; i < events.size(); i++) {
                StoreCompletion c = a.completions.poll(30, TimeUnit.SECONDS);
                assertThat(((StoreCompletion.Written) c).outcome()).isEqualTo(WriteOutcome.STORED);
            }
            Await.await(
                    "50 events on b",
                    WAIT,
                    Await.DEFAULT_POLL,
                    () -> b.delivered.size() >= 50,
                    () -> b.delivered.size() + "");
            // The notification is a wake-up: well before the 5 s poll, the reads by seq brought them.
            assertThat(b.bus.counters().notifications()).isPositive();
            assertThat(b.deliveredTimes())
                    .containsOnlyKeys(events.stream().map(Event::id).toList())
                    .allSatisfy((id, times) -> assertThat(times).isEqualTo(1));
            ForeignEvent first = b.delivered.peek();
            Event sent = events.stream()
                    .filter(e -> e.id().equals(first.id()))
                    .findFirst()
                    .orElseThrow();
            assertThat(first.json()).isEqualTo(sent.json());
            assertThat(first.ephemeral()).isFalse();
            assertThat(first.seq()).isPositive();
            // a stores it and a's own bus skips it; a resend is a duplicate and crosses nothing
            a.store.write(99, events.get(0));
            assertThat(((StoreCompletion.Written) a.completions.poll(30, TimeUnit.SECONDS)).outcome())
                    .isEqualTo(WriteOutcome.DUPLICATE);
            Event marker = alice.sign(T + 100, 1, List.of(), "marker");
            b.store.write(100, marker);
            Await.await("b's marker on a", WAIT, () -> !a.delivered.isEmpty());
            assertThat(a.delivered).extracting(ForeignEvent::id).containsExactly(marker.id());
            Await.await("b's bus past its own marker", WAIT, () -> b.bus.lastSeq() >= first.seq() + 50);
            assertThat(b.delivered).hasSize(50);
            assertThat(b.bus.counters().lagBuckets())
                    .matches(buckets -> java.util.Arrays.stream(buckets).sum() == 50);
        }
    }

    @Test
    void ephemeralEventsCrossThroughTheBusAndAreStoredNowhere() throws Exception {
        PostgresStoreConfig db = TestDatabases.fresh();
        try (Node a = Node.open(db, 5_000);
                Node b = Node.open(db, 5_000)) {
            Await.await("both buses listening", WAIT, () -> a.bus.listening() && b.bus.listening());
            Event small = alice.sign(T, 20001, List.of(List.of("t", "offer")), "hello");
            Event large = alice.sign(T, 20002, List.of(), "x".repeat(20_000));
            a.bus.publishEphemeral(small);
            a.bus.publishEphemeral(large);
            a.bus.publishEphemeral(small);
            Await.await("two ephemeral events on b", WAIT, () -> b.delivered.size() >= 2);
            assertThat(b.delivered).extracting(ForeignEvent::id).containsExactly(small.id(), large.id());
            assertThat(b.delivered).allMatch(ForeignEvent::ephemeral);
            assertThat(new ArrayList<>(b.delivered).get(1).json()).isEqualTo(large.json());
            assertThat(new ArrayList<>(b.delivered).get(0).json()).isEqualTo(small.json());
            assertThat(a.bus.counters().ephemeralPublished()).isEqualTo(3);
            Await.await(
                    "the resent one suppressed", WAIT, () -> b.bus.counters().duplicatesSuppressed() == 1);
            assertThat(a.delivered).isEmpty();
            String stored = TestDatabases.cluster().psql(database(db), "SELECT count(*) FROM nostr_events");
            assertThat(stored).isEqualTo("0");
        }
    }

    /**
     * B's listening connection is cut (as a network blip or a pooler would) and A stores events
     * before B is back: B reads them by sequence id from where it was, each once.
     */
    @Test
    void aBusThatLostItsConnectionCatchesUpFromItsLastSequenceId() throws Exception {
        PostgresStoreConfig db = TestDatabases.fresh();
        PostgresProcess pg = TestDatabases.cluster();
        // B logs in as a role of its own, so that it can be kept out while A goes on writing.
        String roleB = "node_b_" + db.database();
        pg.psql("postgres", "CREATE ROLE " + roleB + " LOGIN SUPERUSER PASSWORD 'b-password'");
        PostgresStoreConfig asB = PostgresStoreConfig.fromUrl(
                "postgresql://" + roleB + "@127.0.0.1:" + pg.port() + "/" + db.database(), "b-password");
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            events.add(alice.sign(T + i, 1, List.of(), "during the gap " + i));
        }
        try (Node a = Node.open(db, 60_000);
                Node b = Node.open(asB, 60_000)) {
            Await.await("both buses listening", WAIT, () -> a.bus.listening() && b.bus.listening());
            pg.psql("postgres", "ALTER ROLE " + roleB + " NOLOGIN");
            pg.psql(
                    "postgres",
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tern-nostr-bus'"
                            + " AND usename = '" + roleB + "'");
            Await.await("b's bus cut off", WAIT, () -> !b.bus.listening());
            for (int i = 0; i < events.size(); i++) {
                a.store.write(i, events.get(i));
            }
            for (int i = 0; i < events.size(); i++) {
                assertThat(((StoreCompletion.Written) a.completions.poll(30, TimeUnit.SECONDS)).outcome())
                        .isEqualTo(WriteOutcome.STORED);
            }
            pg.psql("postgres", "ALTER ROLE " + roleB + " LOGIN");
            // The poll is a minute away: only the catch-up on reconnecting can bring them.
            Await.await(
                    "50 events on b",
                    WAIT,
                    Await.DEFAULT_POLL,
                    () -> b.delivered.size() >= 50,
                    () -> b.delivered.size() + "");
            assertThat(b.bus.counters().reconnects()).isPositive();
            assertThat(b.deliveredTimes())
                    .containsOnlyKeys(events.stream().map(Event::id).toList())
                    .allSatisfy((id, times) -> assertThat(times).isEqualTo(1));
        }
    }

    /**
     * A writes without pause while PostgreSQL is killed and restarted: writes in the gap fail with
     * an error (never a false OK), and afterwards every write A acknowledged as stored has reached B,
     * each once, and nothing B got was not written by A.
     */
    @Test
    void nothingAcknowledgedIsMissedOrDoubledAcrossAKilledPostgres() throws Exception {
        try (PostgresProcess pg = PostgresProcess.start()) {
            PostgresStoreConfig db = TestDatabases.fresh(pg);
            try (Node a = Node.open(db, 1_000);
                    Node b = Node.open(db, 1_000)) {
                Await.await("both buses listening", WAIT, () -> a.bus.listening() && b.bus.listening());
                Map<Long, Event> written = new ConcurrentHashMap<>();
                Set<String> acknowledged = Collections.newSetFromMap(new ConcurrentHashMap<>());
                List<String> errors = Collections.synchronizedList(new ArrayList<>());
                long[] next = {0};
                Runnable writeSome = () -> {
                    for (int i = 0; i < 20; i++) {
                        long id = next[0]++;
                        Event e = alice.sign(T + id, 1, List.of(), "n" + id);
                        written.put(id, e);
                        a.store.write(id, e);
                    }
                };
                java.util.function.IntConsumer drain = n -> {
                    for (int i = 0; i < n; i++) {
                        try {
                            StoreCompletion.Written w =
                                    (StoreCompletion.Written) a.completions.poll(60, TimeUnit.SECONDS);
                            assertThat(w).as("a completion within 60 s").isNotNull();
                            if (w.outcome() == WriteOutcome.STORED) {
                                acknowledged.add(written.get(w.requestId()).id());
                            } else {
                                assertThat(w.outcome()).isEqualTo(WriteOutcome.ERROR);
                                errors.add(w.errorMessage());
                            }
                        } catch (InterruptedException ex) {
                            throw new AssertionError(ex);
                        }
                    }
                };
                writeSome.run();
                drain.accept(20);
                pg.kill();
                writeSome.run();
                drain.accept(20);
                assertThat(errors).as("writes while the database is down fail").isNotEmpty();
                pg.restart();
                Await.await(
                        "both buses listening again",
                        WAIT,
                        Await.DEFAULT_POLL,
                        () -> a.bus.listening() && b.bus.listening(),
                        () -> "reconnects a=" + a.bus.counters().reconnects() + " b="
                                + b.bus.counters().reconnects());
                // the store recovers by itself too: writes succeed again on fresh connections
                Await.await("a write accepted after the restart", WAIT, () -> {
                    writeSome.run();
                    drain.accept(20);
                    return acknowledged.size() > 20;
                });
                Await.await(
                        "every acknowledged event on b",
                        WAIT,
                        Await.DEFAULT_POLL,
                        () -> b.deliveredTimes().keySet().containsAll(acknowledged),
                        () -> b.delivered.size() + " delivered, " + acknowledged.size() + " acknowledged");
                assertThat(b.deliveredTimes())
                        .allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
                Set<String> writtenIds = new java.util.HashSet<>();
                written.values().forEach(e -> writtenIds.add(e.id()));
                assertThat(writtenIds).containsAll(b.deliveredTimes().keySet());
                assertThat(b.bus.counters().reconnects()).isPositive();
                assertThat(a.delivered).isEmpty();
            }
        }
    }

    private static String database(PostgresStoreConfig db) {
        return db.database();
    }
}
