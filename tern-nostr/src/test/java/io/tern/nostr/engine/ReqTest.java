package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReqTest {
    private final Keys alice = Keys.fromSeed(1);
    private final Keys bob = Keys.fromSeed(2);
    private NostrHarness relay;
    private long writer;
    private long reader;
    private long now;

    @BeforeEach
    void setUp() {
        relay = NostrHarness.withDefaults();
        writer = relay.connect("192.0.2.1");
        reader = relay.connect("192.0.2.2");
        relay.take(writer);
        relay.take(reader);
        now = relay.clock.epochSeconds();
    }

    private Event store(Event e) {
        relay.publish(writer, e);
        assertThat(relay.takeOne(writer)).containsExactly("OK", e.id(), true, "");
        return e;
    }

    /** Sends a REQ and returns the ids of the stored events before EOSE, checking EOSE comes last. */
    private List<String> req(String subscriptionId, String filters) {
        relay.send(reader, "[\"REQ\",\"" + subscriptionId + "\"," + filters + "]");
        List<List<Object>> messages = relay.takeParsed(reader);
        assertThat(messages).isNotEmpty();
        assertThat(messages.get(messages.size() - 1)).containsExactly("EOSE", subscriptionId);
        List<String> ids = new ArrayList<>();
        for (List<Object> m : messages.subList(0, messages.size() - 1)) {
            assertThat(m.subList(0, 2)).containsExactly("EVENT", subscriptionId);
            ids.add((String) ((Map<?, ?>) m.get(2)).get("id"));
        }
        return ids;
    }

    @Test
    void storedResultsComeNewestFirstTiesByLowestIdAndLimitApplies() {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            events.add(store(alice.sign(now - (i / 3), 1, List.of(), "n" + i)));
        }
        List<Event> expected = new ArrayList<>(events);
        expected.sort(Comparator.comparingLong(Event::createdAt).reversed().thenComparing(Event::id));
        assertThat(req("all", "{\"kinds\":[1]}"))
                .containsExactlyElementsOf(expected.stream().map(Event::id).toList());
        assertThat(req("top4", "{\"kinds\":[1],\"limit\":4}"))
                .containsExactlyElementsOf(
                        expected.subList(0, 4).stream().map(Event::id).toList());
    }

    @Test
    void theSentEventIsTheStoredEventVerbatim() {
        Event e = store(alice.sign(now, 1, List.of(List.of("t", "x")), "line\nbreak \u0001 é"));
        relay.send(reader, "[\"REQ\",\"s\",{\"ids\":[\"" + e.id() + "\"]}]");
        List<String> raw = relay.take(reader);
        assertThat(raw.get(0))
                .isEqualTo("[\"EVENT\",\"s\"," + new String(e.json(), java.nio.charset.StandardCharsets.UTF_8) + "]");
    }

    @Test
    void limitZeroGivesEoseThenLiveEventsOnly() {
        store(alice.sign(now, 1, List.of(), "old"));
        assertThat(req("live", "{\"kinds\":[1],\"limit\":0}")).isEmpty();
        Event fresh = store(alice.sign(now, 1, List.of(), "new"));
        List<Object> m = relay.takeOne(reader);
        assertThat(m.subList(0, 2)).containsExactly("EVENT", "live");
        assertThat(((Map<?, ?>) m.get(2)).get("id")).isEqualTo(fresh.id());
    }

    @Test
    void filtersAreOredAndAnEventMatchingTwoIsSentOnce() {
        Event a = store(alice.sign(now, 1, List.of(), "a"));
        Event b = store(bob.sign(now, 7, List.of(), "b"));
        store(bob.sign(now, 1, List.of(), "c"));
        List<String> ids =
                req("or", "{\"authors\":[\"" + alice.pubkey() + "\"]},{\"kinds\":[7]},{\"ids\":[\"" + a.id() + "\"]}");
        assertThat(ids).containsExactlyInAnyOrder(a.id(), b.id());
    }

    @Test
    void limitIsPerFilterAndClampedToTheMaximum() {
        NostrHarness small = new NostrHarness(
                NostrConfig.builder().maxLimit(3).defaultLimit(2).build());
        long w = small.client("192.0.2.1");
        for (int i = 0; i < 5; i++) {
            small.publish(w, alice.sign(now - i, 1, List.of(), "a" + i));
            small.publish(w, bob.sign(now - i, 1, List.of(), "b" + i));
        }
        small.take(w);
        small.send(
                w,
                "[\"REQ\",\"s\",{\"authors\":[\"" + alice.pubkey() + "\"],\"limit\":100},{\"authors\":[\""
                        + bob.pubkey() + "\"]}]");
        List<List<Object>> got = small.takeParsed(w);
        // 3 of alice's (clamped), 2 of bob's (default), EOSE
        assertThat(got).hasSize(6);
    }

    @Test
    void aReqReusingAnIdReplacesTheSubscription() {
        assertThat(req("s", "{\"kinds\":[1],\"limit\":0}")).isEmpty();
        assertThat(req("s", "{\"kinds\":[7],\"limit\":0}")).isEmpty();
        store(alice.sign(now, 1, List.of(), "kind 1"));
        assertThat(relay.take(reader)).isEmpty();
        Event seven = store(alice.sign(now, 7, List.of(), "+"));
        assertThat(relay.takeParsed(reader))
                .singleElement()
                .satisfies(m -> assertThat(m.get(1)).isEqualTo("s"));
        assertThat(relay.engine.counters().subscriptionsOpen()).isEqualTo(1);
        assertThat(seven).isNotNull();
    }

    @Test
    void closeEndsTheSubscription() {
        req("s", "{\"limit\":0}");
        relay.send(reader, "[\"CLOSE\",\"s\"]");
        assertThat(relay.take(reader)).isEmpty();
        store(alice.sign(now, 1, List.of(), "after close"));
        assertThat(relay.take(reader)).isEmpty();
        assertThat(relay.engine.counters().subscriptionsOpen()).isZero();
        assertThat(relay.engine.liveFilters()).isZero();
        relay.send(reader, "[\"CLOSE\",\"never-opened\"]");
        assertThat(relay.take(reader)).isEmpty();
    }

    @Test
    void subscriptionIdsAreScopedToTheirConnection() {
        req("same", "{\"authors\":[\"" + bob.pubkey() + "\"],\"limit\":0}");
        relay.send(writer, "[\"REQ\",\"same\",{\"authors\":[\"" + alice.pubkey() + "\"],\"limit\":0}]");
        relay.take(writer);
        Event e = alice.sign(now, 1, List.of(), "to writer only");
        relay.publish(writer, e);
        List<List<Object>> w = relay.takeParsed(writer);
        assertThat(w).extracting(m -> m.get(0)).containsExactlyInAnyOrder("OK", "EVENT");
        assertThat(relay.take(reader)).isEmpty();
    }

    @Test
    void aClosedConnectionsSubscriptionsAreGone() {
        req("a", "{\"limit\":0}");
        req("b", "{\"kinds\":[1]}");
        relay.close(reader);
        assertThat(relay.engine.counters().subscriptionsOpen()).isZero();
        assertThat(relay.engine.liveFilters()).isZero();
        store(alice.sign(now, 1, List.of(), "x"));
        assertThat(relay.take(reader)).isEmpty();
    }

    @Test
    void eventsCommittedDuringTheStoredPhaseGoOutOnce() {
        Event old = store(alice.sign(now - 5, 1, List.of(), "old"));
        relay.autoSettle = false;
        relay.send(reader, "[\"REQ\",\"s\",{\"kinds\":[1]}]");
        Event during = alice.sign(now, 1, List.of(), "during");
        relay.publish(writer, during);
        // the write commits before the query runs: the query finds it, and so does the live phase
        relay.settle();
        List<List<Object>> got = relay.takeParsed(reader);
        List<Object> ids = new ArrayList<>();
        for (List<Object> m : got) {
            if (m.get(0).equals("EVENT")) {
                ids.add(((Map<?, ?>) m.get(2)).get("id"));
            }
        }
        assertThat(ids).containsExactlyInAnyOrder(old.id(), during.id());
        assertThat(got.get(got.size() - 1)).containsExactly("EOSE", "s");
    }

    @Test
    void queryTimeIsCounted() {
        relay.autoSettle = false;
        relay.send(reader, "[\"REQ\",\"s\",{\"kinds\":[1]}]");
        relay.clock.advanceMillis(3);
        relay.settle();
        assertThat(relay.takeOne(reader)).containsExactly("EOSE", "s");
        NostrCounters c = relay.engine.counters();
        assertThat(c.queries()).isEqualTo(1);
        assertThat(c.queryTimeNs()).isEqualTo(3_000_000L);
        assertThat(c.queryTimeBuckets()[1]).isEqualTo(1);
    }

    @Test
    void aQueryThatOutlivesItsTimeoutEndsWithEoseAndStaysLive() {
        relay.autoSettle = false;
        relay.send(reader, "[\"REQ\",\"slow\",{\"kinds\":[1]}]");
        assertThat(relay.engine.nextDeadlineNs()).isEqualTo(relay.clock.nowNs() + 10_000_000_000L);
        relay.advanceMillis(9_999);
        assertThat(relay.take(reader)).isEmpty();
        relay.advanceMillis(1);
        assertThat(relay.takeOne(reader)).containsExactly("EOSE", "slow");
        assertThat(relay.engine.counters().queriesTimedOut()).isEqualTo(1);
        // the late answer is ignored, the subscription is live
        relay.settle();
        assertThat(relay.take(reader)).isEmpty();
        Event e = alice.sign(relay.clock.epochSeconds(), 1, List.of(), "live");
        relay.publish(writer, e);
        relay.settle();
        assertThat(relay.takeOne(reader).get(0)).isEqualTo("EVENT");
    }

    @Test
    void aFailedQueryClosesTheSubscription() {
        relay.autoSettle = false;
        relay.send(reader, "[\"REQ\",\"s\",{\"kinds\":[1]}]");
        relay.store.close();
        relay.engine.onStoreCompletion(new io.tern.nostr.store.StoreCompletion.Failed(1, "disk"), relay.clock.nowNs());
        relay.drain();
        assertThat(relay.takeOne(reader)).containsExactly("CLOSED", "s", "error: the query failed");
        assertThat(relay.engine.counters().subscriptionsOpen()).isZero();
    }
}
