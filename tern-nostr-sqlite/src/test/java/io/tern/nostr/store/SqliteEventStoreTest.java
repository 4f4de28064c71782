package io.tern.nostr.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.engine.NostrEngine;
import io.tern.nostr.engine.NostrOutput;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.sqlite.SqliteBackend;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.nostr.testing.Keys;
import io.tern.testkit.FakeClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The threaded SQLite store: commit before completion, batching, visibility, persistence. */
class SqliteEventStoreTest {
    private static final long T = 1_700_000_000L;
    private final Keys alice = Keys.fromSeed(1);

    @TempDir
    Path dir;

    private SqliteStoreConfig config() {
        return SqliteStoreConfig.defaults(dir.resolve("relay.db"));
    }

    private static StoreCompletion take(LinkedBlockingQueue<StoreCompletion> q) throws InterruptedException {
        StoreCompletion c = q.poll(30, TimeUnit.SECONDS);
        assertThat(c).as("a completion within 30 s").isNotNull();
        return c;
    }

    @Test
    void aWriteCompletesOnlyAfterItsTransactionCommitted() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("relay.db");
        List<Boolean> visibleAtCompletion = new ArrayList<>();
        LinkedBlockingQueue<StoreCompletion> done = new LinkedBlockingQueue<>();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            events.add(alice.sign(T, 1, List.of(), "e" + i));
        }
        try (SqliteEventStore store = SqliteEventStore.open(
                config(),
                true,
                c -> {
                    // Another connection must already see the row when the completion is emitted.
                    try (Connection other = DriverManager.getConnection(url);
                            PreparedStatement s = other.prepareStatement("SELECT count(*) FROM events WHERE id = ?")) {
                        s.setBytes(1, events.get((int) c.requestId()).idBytes());
                        try (ResultSet rs = s.executeQuery()) {
                            rs.next();
                            visibleAtCompletion.add(rs.getInt(1) == 1);
                        }
                    } catch (Exception e) {
                        visibleAtCompletion.add(false);
                    }
                    done.add(c);
                },
                System::nanoTime)) {
            for (int i = 0; i < events.size(); i++) {
                store.write(i, events.get(i));
            }
            for (int i = 0; i < events.size(); i++) {
                assertThat(((StoreCompletion.Written) take(done)).outcome()).isEqualTo(WriteOutcome.STORED);
            }
        }
        assertThat(visibleAtCompletion).hasSize(20).containsOnly(true);
    }

    @Test
    void writesWaitingTogetherAreCommittedInOneTransaction() throws Exception {
        CountDownLatch allSubmitted = new CountDownLatch(1);
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(1000);
        try (SqliteEventStore store = SqliteEventStore.open(
                config(),
                true,
                c -> {
                    if (completed.getAndIncrement() == 0) {
                        try {
                            // Hold the writer in its first batch until everything else is queued.
                            allSubmitted.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    allDone.countDown();
                },
                System::nanoTime)) {
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                events.add(alice.sign(T, 1, List.of(), "b" + i));
            }
            store.write(0, events.get(0));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (store.committedBatches() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(store.committedBatches()).as("first batch committed").isEqualTo(1);
            for (int i = 1; i < 1000; i++) {
                store.write(i, events.get(i));
            }
            allSubmitted.countDown();
            assertThat(allDone.await(60, TimeUnit.SECONDS)).isTrue();
            // 1 + 999 in batches of at most 512
            assertThat(store.committedBatches()).isEqualTo(3);
            assertThat(store.committedEvents()).isEqualTo(1000);
        }
    }

    @Test
    void aNewQuerySeesCommitsMadeWhileAnotherQueryIsOpen() throws Exception {
        try (SqliteBackend backend = SqliteBackend.open(config(), true)) {
            for (int i = 0; i < 10; i++) {
                backend.writeBatch(List.of(alice.sign(T - i, 1, List.of(), "old" + i)));
            }
            List<SerializedEvent> first = new ArrayList<>();
            try (Cursor open = backend.openQuery(Filter.any().withLimit(100), T)) {
                open.step(2, first);
                Event fresh = alice.sign(T + 1, 1, List.of(), "fresh");
                assertThat(backend.writeBatch(List.of(fresh))).containsExactly(WriteOutcome.STORED);
                List<SerializedEvent> second = new ArrayList<>();
                try (Cursor next = backend.openQuery(Filter.any().withLimit(1), T + 1)) {
                    next.step(10, second);
                }
                assertThat(second).extracting(SerializedEvent::id).containsExactly(fresh.id());
            }
        }
    }

    @Test
    void eventsSurviveAReopen() throws Exception {
        Event e = alice.sign(T, 1, List.of(), "kept");
        try (SqliteBackend b = SqliteBackend.open(config(), true)) {
            b.writeBatch(List.of(e));
        }
        try (SqliteBackend b = SqliteBackend.open(config(), true)) {
            assertThat(b.writeBatch(List.of(e))).containsExactly(WriteOutcome.DUPLICATE);
        }
    }

    @Test
    void anUnknownSchemaVersionIsRefused() throws Exception {
        try (SqliteBackend b = SqliteBackend.open(config(), true)) {
            b.writeBatch(List.of());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("relay.db"))) {
            c.createStatement().execute("UPDATE meta SET value = 99 WHERE key = 'schema_version'");
        }
        assertThatThrownBy(() -> SqliteBackend.open(config(), true)).hasMessageContaining("database schema version 99");
    }

    /** The engine over the real store, completions crossing threads as an adapter would hand them over. */
    @Test
    void theEngineOverSqlite() throws Exception {
        LinkedBlockingQueue<StoreCompletion> completions = new LinkedBlockingQueue<>();
        FakeClock clock = new FakeClock();
        try (SqliteEventStore store = SqliteEventStore.open(config(), true, completions::add, System::nanoTime)) {
            NostrEngine engine = new NostrEngine(
                    NostrConfig.defaults(), Keys.secp(), clock::epochSeconds, new Random(1), clock.nowNs());
            engine.onOpen(1, "127.0.0.1", "localhost:7777", clock.nowNs());
            drain(engine, store);
            long now = clock.epochSeconds();
            Event note = alice.sign(now, 1, List.of(List.of("t", "tern")), "over sqlite");
            Event profile1 = alice.sign(now - 5, 0, List.of(), "{\"name\":\"a\"}");
            Event profile2 = alice.sign(now, 0, List.of(), "{\"name\":\"b\"}");
            for (Event e : List.of(note, profile1, profile2)) {
                send(engine, "[\"EVENT\"," + new String(e.json(), StandardCharsets.UTF_8) + "]", clock);
            }
            List<String> oks = pumpUntil(engine, store, completions, clock, 3, "OK");
            assertThat(oks).hasSize(3).allSatisfy(m -> assertThat(m).contains(",true,"));
            send(engine, "[\"REQ\",\"s\",{\"authors\":[\"" + alice.pubkey() + "\"]}]", clock);
            List<String> got = pumpUntil(engine, store, completions, clock, 1, "EOSE");
            assertThat(got).hasSize(3);
            assertThat(got.get(0)).contains(note.id()).startsWith("[\"EVENT\",\"s\",");
            assertThat(got.get(1)).contains(profile2.id());
            send(engine, "[\"COUNT\",\"c\",{\"#t\":[\"tern\"]}]", clock);
            assertThat(pumpUntil(engine, store, completions, clock, 1, "COUNT"))
                    .containsExactly("[\"COUNT\",\"c\",{\"count\":1}]");
        }
    }

    private static void send(NostrEngine engine, String text, FakeClock clock) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        engine.onMessage(1, b, 0, b.length, clock.nowNs());
    }

    /** Drains the engine as the adapter does: sends collected as text, store requests carried out. */
    private static List<String> drain(NostrEngine engine, EventStore store) {
        List<String> out = new ArrayList<>();
        NostrOutput o;
        while ((o = engine.poll()) != null) {
            switch (o) {
                case NostrOutput.Send s -> out.add(s.text());
                case NostrOutput.StoreRequest r -> r.carryOut(store);
                case NostrOutput.Disconnect d -> throw new AssertionError("unexpected " + d);
            }
        }
        return out;
    }

    /** Feeds completions until {@code n} messages of type {@code verb} have come out; returns everything sent. */
    private static List<String> pumpUntil(
            NostrEngine engine,
            EventStore store,
            LinkedBlockingQueue<StoreCompletion> completions,
            FakeClock clock,
            int n,
            String verb)
            throws InterruptedException {
        List<String> out = new ArrayList<>(drain(engine, store));
        while (out.stream().filter(m -> m.startsWith("[\"" + verb + "\"")).count() < n) {
            engine.onStoreCompletion(take(completions), clock.nowNs());
            out.addAll(drain(engine, store));
        }
        return out;
    }
}
