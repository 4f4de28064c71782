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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store with its agents stepped by the test: commit before completion, batching, visibility, persistence. */
class SqliteEventStoreTest {
    private static final long T = 1_700_000_000L;
    private final Keys alice = Keys.fromSeed(1);

    @TempDir
    Path dir;

    private SqliteStoreConfig config() {
        return SqliteStoreConfig.defaults(dir.resolve("relay.db"));
    }

    @Test
    void aWriteCompletesOnlyAfterItsTransactionCommitted() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("relay.db");
        List<Boolean> visibleAtCompletion = new ArrayList<>();
        List<StoreCompletion> done = new ArrayList<>();
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
            assertThat(done).as("nothing is answered until the writer runs").isEmpty();
            assertThat(store.writer().doWork()).isEqualTo(20);
            assertThat(done)
                    .hasSize(20)
                    .allSatisfy(c ->
                            assertThat(((StoreCompletion.Written) c).outcome()).isEqualTo(WriteOutcome.STORED));
        }
        assertThat(visibleAtCompletion).hasSize(20).containsOnly(true);
    }

    @Test
    void writesWaitingTogetherAreCommittedInOneTransaction() throws Exception {
        List<StoreCompletion> done = new ArrayList<>();
        try (SqliteEventStore store = SqliteEventStore.open(config(), true, done::add, System::nanoTime)) {
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                events.add(alice.sign(T, 1, List.of(), "b" + i));
            }
            store.write(0, events.get(0));
            assertThat(store.writer().doWork()).isEqualTo(1);
            assertThat(store.committedBatches()).as("first batch committed").isEqualTo(1);
            assertThat(done).hasSize(1);
            for (int i = 1; i < 1000; i++) {
                store.write(i, events.get(i));
            }
            // 999 waiting, in batches of at most 512
            assertThat(store.writer().doWork()).isEqualTo(512);
            assertThat(done).hasSize(513);
            assertThat(store.writer().doWork()).isEqualTo(487);
            assertThat(store.writer().doWork()).as("nothing left").isZero();
            assertThat(store.committedBatches()).isEqualTo(3);
            assertThat(store.committedEvents()).isEqualTo(1000);
            assertThat(done)
                    .extracting(StoreCompletion::requestId)
                    .as("completed in the order written")
                    .isSorted()
                    .hasSize(1000);
        }
    }

    @Test
    void aPurgeWaitingWithWritesRunsAfterTheirCommit() throws Exception {
        List<StoreCompletion> done = new ArrayList<>();
        try (SqliteEventStore store = SqliteEventStore.open(config(), true, done::add, System::nanoTime)) {
            Event expiring = alice.sign(T, 1, List.of(List.of("expiration", String.valueOf(T + 10))), "soon gone");
            store.write(1, expiring);
            store.purgeExpired(T + 10);
            assertThat(store.writer().doWork()).isEqualTo(2);
            assertThat(done).hasSize(1);
            assertThat(store.purgedEvents()).isEqualTo(1);
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

    /** The engine over the real store, its agents stepped by the test as the server's threads would run them. */
    @Test
    void theEngineOverSqlite() throws Exception {
        ArrayDeque<StoreCompletion> completions = new ArrayDeque<>();
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
            List<String> out = new ArrayList<>();
            for (Event e : List.of(note, profile1, profile2)) {
                out.addAll(
                        send(engine, store, "[\"EVENT\"," + new String(e.json(), StandardCharsets.UTF_8) + "]", clock));
            }
            assertThat(out).as("no OK before the writer commits").isEmpty();
            assertThat(store.writer().doWork())
                    .as("the three writes in one batch")
                    .isEqualTo(3);
            List<String> oks = deliver(engine, store, completions, clock);
            assertThat(oks).hasSize(3).allSatisfy(m -> assertThat(m).contains(",true,"));

            assertThat(send(engine, store, "[\"REQ\",\"s\",{\"authors\":[\"" + alice.pubkey() + "\"]}]", clock))
                    .isEmpty();
            List<String> got = stepReader(engine, store, completions, clock);
            assertThat(got).hasSize(3);
            assertThat(got.get(0)).contains(note.id()).startsWith("[\"EVENT\",\"s\",");
            assertThat(got.get(1)).contains(profile2.id());
            assertThat(got.get(2)).isEqualTo("[\"EOSE\",\"s\"]");

            send(engine, store, "[\"COUNT\",\"c\",{\"#t\":[\"tern\"]}]", clock);
            assertThat(stepReader(engine, store, completions, clock))
                    .containsExactly("[\"COUNT\",\"c\",{\"count\":1}]");
        }
    }

    private static List<String> send(NostrEngine engine, EventStore store, String text, FakeClock clock) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        engine.onMessage(1, b, 0, b.length, clock.nowNs());
        return drain(engine, store);
    }

    /** Drains the engine as the adapter does: sends collected as text, store requests carried out. */
    private static List<String> drain(NostrEngine engine, EventStore store) {
        List<String> out = new ArrayList<>();
        NostrOutput o;
        while ((o = engine.poll()) != null) {
            switch (o) {
                case NostrOutput.Send s -> out.add(s.text());
                case NostrOutput.Broadcast b -> {
                    for (int i = 0; i < b.recipients(); i++) {
                        out.add(b.sendTo(i).text());
                    }
                }
                case NostrOutput.StoreRequest r -> r.carryOut(store);
                case NostrOutput.Disconnect d -> throw new AssertionError("unexpected " + d);
                case NostrOutput.Publish p -> {}
            }
        }
        return out;
    }

    /** Hands the completions emitted so far to the engine; returns everything it sent. */
    private static List<String> deliver(
            NostrEngine engine, EventStore store, ArrayDeque<StoreCompletion> completions, FakeClock clock) {
        List<String> out = new ArrayList<>();
        StoreCompletion c;
        while ((c = completions.poll()) != null) {
            engine.onStoreCompletion(c, clock.nowNs());
            out.addAll(drain(engine, store));
        }
        return out;
    }

    /** Steps the reader until it has nothing left (bounded), delivering its completions. */
    private static List<String> stepReader(
            NostrEngine engine, SqliteEventStore store, ArrayDeque<StoreCompletion> completions, FakeClock clock) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 1000 && store.reader().doWork() > 0; i++) {
            out.addAll(deliver(engine, store, completions, clock));
        }
        assertThat(store.reader().pending()).as("the reader finished").isZero();
        return out;
    }
}
