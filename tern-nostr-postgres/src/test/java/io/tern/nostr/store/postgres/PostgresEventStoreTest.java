package io.tern.nostr.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.engine.NostrEngine;
import io.tern.nostr.engine.NostrOutput;
import io.tern.nostr.event.Event;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.WriteOutcome;
import io.tern.nostr.testing.Keys;
import io.tern.testkit.FakeClock;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The threaded PostgreSQL store: commit before completion, a database that is not there, the engine over it. */
class PostgresEventStoreTest {
    private static final long T = 1_700_000_000L;
    private final Keys alice = Keys.fromSeed(1);

    private static StoreCompletion take(LinkedBlockingQueue<StoreCompletion> q) throws InterruptedException {
        StoreCompletion c = q.poll(30, TimeUnit.SECONDS);
        assertThat(c).as("a completion within 30 s").isNotNull();
        return c;
    }

    @Test
    void aWriteCompletesOnlyAfterItsTransactionCommitted() throws Exception {
        PostgresStoreConfig db = TestDatabases.fresh();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            events.add(alice.sign(T, 1, List.of(), "e" + i));
        }
        List<Boolean> visibleAtCompletion = new ArrayList<>();
        LinkedBlockingQueue<StoreCompletion> done = new LinkedBlockingQueue<>();
        try (Connection other = PostgresBackend.connect(db);
                PreparedStatement s = other.prepareStatement("SELECT count(*) FROM nostr_events WHERE id = ?")) {
            try (PostgresEventStore store = PostgresEventStore.open(
                    db,
                    true,
                    c -> {
                        // Another session must already see the row when the completion is emitted.
                        try {
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
                assertThat(store.committedEvents()).isEqualTo(20);
            }
        }
        assertThat(visibleAtCompletion).hasSize(20).containsOnly(true);
    }

    @Test
    void aDatabaseThatIsNotThereIsAClearErrorAtOpen() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PostgresStoreConfig nowhere =
                PostgresStoreConfig.fromUrl("postgresql://tern@127.0.0.1:" + port + "/nostr", "x");
        assertThatThrownBy(() -> PostgresEventStore.open(nowhere, true, c -> {}, System::nanoTime))
                .hasMessageStartingWith("cannot open postgresql://tern@127.0.0.1:" + port + "/nostr: ")
                .hasMessageContaining("refused");
        PostgresStoreConfig db = TestDatabases.fresh();
        PostgresStoreConfig wrongPassword = PostgresStoreConfig.fromUrl(
                "postgresql://tern@127.0.0.1:" + db.port() + "/" + db.database(), "not-the-password");
        assertThatThrownBy(() -> PostgresEventStore.open(wrongPassword, true, c -> {}, System::nanoTime))
                .hasMessageContaining("password authentication failed");
    }

    /** The engine over the real store, completions crossing threads as an adapter would hand them over. */
    @Test
    void theEngineOverPostgres() throws Exception {
        LinkedBlockingQueue<StoreCompletion> completions = new LinkedBlockingQueue<>();
        FakeClock clock = new FakeClock();
        try (PostgresEventStore store =
                PostgresEventStore.open(TestDatabases.fresh(), true, completions::add, System::nanoTime)) {
            NostrEngine engine = new NostrEngine(
                    NostrConfig.defaults(), Keys.secp(), clock::epochSeconds, new Random(1), clock.nowNs());
            engine.onOpen(1, "127.0.0.1", "localhost:7777", clock.nowNs());
            drain(engine, store);
            long now = clock.epochSeconds();
            Event note = alice.sign(now, 1, List.of(List.of("t", "tern")), "over postgres");
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
