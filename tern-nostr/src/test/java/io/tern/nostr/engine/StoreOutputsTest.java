package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.WriteOutcome;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.TestJson;
import io.tern.testkit.FakeClock;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store as outputs of the engine, with no store at all: the test reads each
 * {@link NostrOutput.StoreRequest} the engine queues and answers it by hand with the
 * {@link StoreCompletion} a store would send, on a fake clock.
 */
class StoreOutputsTest {
    private static final long CONN = 1;
    private final FakeClock clock = new FakeClock();
    private final Keys alice = Keys.fromSeed(1);
    private NostrEngine engine;
    private final List<String> sent = new ArrayList<>();
    private final List<NostrOutput.StoreRequest> requests = new ArrayList<>();

    @BeforeEach
    void open() {
        engine =
                new NostrEngine(NostrConfig.defaults(), Keys.secp(), clock::epochSeconds, new Random(3), clock.nowNs());
        engine.onOpen(CONN, "192.0.2.1", "relay.test:7777", clock.nowNs());
        drain();
        sent.clear();
    }

    private void drain() {
        NostrOutput o;
        while ((o = engine.poll()) != null) {
            switch (o) {
                case NostrOutput.Send s -> sent.add(s.text());
                case NostrOutput.Broadcast b -> {
                    for (int i = 0; i < b.recipients(); i++) {
                        sent.add(b.sendTo(i).text());
                    }
                }
                case NostrOutput.StoreRequest r -> requests.add(r);
                case NostrOutput.Disconnect d -> throw new AssertionError("unexpected " + d);
                case NostrOutput.Publish p -> {}
            }
        }
    }

    private void send(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        engine.onMessage(CONN, b, 0, b.length, clock.nowNs());
        drain();
    }

    private void complete(StoreCompletion c) {
        engine.onStoreCompletion(c, clock.nowNs());
        drain();
    }

    private <T extends NostrOutput.StoreRequest> T onlyRequest(Class<T> type) {
        assertThat(requests).hasSize(1).first().isInstanceOf(type);
        T r = type.cast(requests.get(0));
        requests.clear();
        return r;
    }

    @Test
    void aWriteIsAnOutputAndItsOkWaitsForTheWrittenInput() {
        Event e = alice.sign(clock.epochSeconds(), 1, List.of(), "hello");
        send(Keys.eventMessage(e));
        NostrOutput.StoreWrite write = onlyRequest(NostrOutput.StoreWrite.class);
        assertThat(write.event().id()).isEqualTo(e.id());
        assertThat(sent).as("no OK before the store answers").isEmpty();

        clock.advanceMillis(50);
        assertThat(engine.nextDeadlineNs()).isGreaterThan(clock.nowNs());
        assertThat(sent).as("time passing does not answer it either").isEmpty();

        complete(new StoreCompletion.Written(write.requestId(), WriteOutcome.STORED, null));
        assertThat(sent).containsExactly("[\"OK\",\"" + e.id() + "\",true,\"\"]");
        assertThat(engine.pendingStoreRequests()).isZero();
    }

    @Test
    void aFailedWriteIsAnsweredFalseWithTheErrorPrefix() {
        Event e = alice.sign(clock.epochSeconds(), 1, List.of(), "lost");
        send("[\"REQ\",\"live\",{\"kinds\":[1],\"limit\":0}]");
        sent.clear();
        send(Keys.eventMessage(e));
        NostrOutput.StoreWrite write = onlyRequest(NostrOutput.StoreWrite.class);

        complete(new StoreCompletion.Written(write.requestId(), WriteOutcome.ERROR, "disk I/O error"));
        assertThat(sent).hasSize(1);
        List<Object> ok = TestJson.array(sent.get(0));
        assertThat(ok.subList(0, 3)).containsExactly("OK", e.id(), false);
        assertThat((String) ok.get(3)).startsWith("error:");
        assertThat(engine.counters().eventsStored()).isZero();
    }

    @Test
    void anUncommittedEventIsNotBroadcast() {
        send("[\"REQ\",\"live\",{\"kinds\":[1],\"limit\":0}]");
        sent.clear();
        Event e = alice.sign(clock.epochSeconds(), 1, List.of(), "held");
        send(Keys.eventMessage(e));
        NostrOutput.StoreWrite write = onlyRequest(NostrOutput.StoreWrite.class);
        assertThat(sent).as("neither OK nor EVENT before the commit").isEmpty();
        complete(new StoreCompletion.Written(write.requestId(), WriteOutcome.STORED, null));
        assertThat(sent)
                .containsExactly(
                        "[\"OK\",\"" + e.id() + "\",true,\"\"]",
                        "[\"EVENT\",\"live\"," + new String(e.json(), StandardCharsets.UTF_8) + "]");
    }

    @Test
    void queryBatchesBecomeEventsInOrderThenEose() {
        send("[\"REQ\",\"s\",{\"kinds\":[1],\"limit\":5}]");
        NostrOutput.StoreQuery query = onlyRequest(NostrOutput.StoreQuery.class);
        assertThat(query.filters()).hasSize(1);
        assertThat(query.filters().get(0).limit()).isEqualTo(5);
        assertThat(query.nowSeconds()).isEqualTo(clock.epochSeconds());
        assertThat(sent).isEmpty();

        long t = clock.epochSeconds();
        List<SerializedEvent> first = List.of(alice.sign(t, 1, List.of(), "c"), alice.sign(t - 1, 1, List.of(), "b"));
        List<SerializedEvent> second = List.of(alice.sign(t - 2, 1, List.of(), "a"));
        complete(new StoreCompletion.QueryBatch(query.requestId(), first, false));
        assertThat(sent).hasSize(2);
        complete(new StoreCompletion.QueryBatch(query.requestId(), second, true));

        List<String> order = new ArrayList<>();
        for (String m : sent) {
            List<Object> parsed = TestJson.array(m);
            order.add(parsed.get(0).equals("EVENT") ? (String) ((Map<?, ?>) parsed.get(2)).get("content") : m);
        }
        assertThat(order).containsExactly("c", "b", "a", "[\"EOSE\",\"s\"]");
    }

    @Test
    void aFailedQueryClosesTheSubscriptionWithTheErrorPrefix() {
        send("[\"REQ\",\"s\",{\"kinds\":[1]}]");
        NostrOutput.StoreQuery query = onlyRequest(NostrOutput.StoreQuery.class);
        complete(new StoreCompletion.Failed(query.requestId(), "database is locked"));
        assertThat(sent).containsExactly("[\"CLOSED\",\"s\",\"error: the query failed\"]");
        assertThat(engine.liveFilters()).isZero();
    }

    @Test
    void closingASubscriptionMidQueryCancelsItAndIgnoresLateBatches() {
        send("[\"REQ\",\"s\",{\"kinds\":[1]}]");
        NostrOutput.StoreQuery query = onlyRequest(NostrOutput.StoreQuery.class);
        send("[\"CLOSE\",\"s\"]");
        assertThat(onlyRequest(NostrOutput.StoreCancel.class).requestId()).isEqualTo(query.requestId());
        complete(new StoreCompletion.QueryBatch(
                query.requestId(), List.of(alice.sign(clock.epochSeconds(), 1, List.of(), "late")), true));
        assertThat(sent).isEmpty();
    }

    @Test
    void aCountIsAnOutputAnsweredByTheCountedInput() {
        send("[\"COUNT\",\"n\",{\"kinds\":[1]}]");
        NostrOutput.StoreCount count = onlyRequest(NostrOutput.StoreCount.class);
        assertThat(count.filters()).extracting(Filter::kinds).containsExactly(new int[] {1});
        assertThat(sent).isEmpty();
        complete(new StoreCompletion.Counted(count.requestId(), 42));
        assertThat(sent).containsExactly("[\"COUNT\",\"n\",{\"count\":42}]");
    }

    @Test
    void thePurgeOfExpiredEventsIsATimedOutput() {
        assertThat(requests).isEmpty();
        long due = engine.nextDeadlineNs();
        clock.advanceNs(due - clock.nowNs());
        engine.onTimeout(clock.nowNs());
        drain();
        assertThat(onlyRequest(NostrOutput.StorePurge.class).nowSeconds()).isEqualTo(clock.epochSeconds());
        assertThat(engine.nextDeadlineNs()).isGreaterThan(clock.nowNs());
    }
}
