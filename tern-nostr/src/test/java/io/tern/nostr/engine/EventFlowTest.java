package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventFlowTest extends ClientFixture {
    private List<Object> ok(Event e) {
        relay.publish(conn, e);
        List<Object> m = relay.takeOne(conn);
        assertThat(m.get(0)).isEqualTo("OK");
        assertThat(m.get(1)).isEqualTo(e.id());
        return m;
    }

    @Test
    void okIsSentOnlyOnceTheStoreHasCommitted() {
        relay.autoSettle = false;
        Event e = alice.sign(now, 1, List.of(), "hello");
        relay.publish(conn, e);
        assertThat(relay.take(conn)).as("nothing before the commit").isEmpty();
        assertThat(relay.events.contains(e.id())).isFalse();
        relay.store.commitWrites();
        assertThat(relay.take(conn))
                .as("the commit's completion is not yet an input")
                .isEmpty();
        relay.deliver();
        assertThat(relay.takeOne(conn)).containsExactly("OK", e.id(), true, "");
        assertThat(relay.events.contains(e.id())).isTrue();
        assertThat(relay.engine.counters().eventsStored()).isEqualTo(1);
    }

    @Test
    void aDuplicateIsAcknowledgedWithItsPrefix() {
        Event e = alice.sign(now, 1, List.of(), "hello");
        assertThat(ok(e)).containsExactly("OK", e.id(), true, "");
        assertThat(ok(e)).containsExactly("OK", e.id(), true, "duplicate: already have this event");
        assertThat(relay.engine.counters().eventsRejected(Prefix.DUPLICATE)).isEqualTo(1);
    }

    @Test
    void aWrongIdIsInvalid() {
        Event good = alice.sign(now, 1, List.of(), "hello");
        Event tampered = Event.of(good.id(), good.pubkey(), good.createdAt(), 1, List.of(), "HELLO", good.sig());
        assertThat(ok(tampered))
                .containsExactly("OK", good.id(), false, "invalid: event id does not match the event's hash");
        assertThat(relay.events.size()).isZero();
    }

    @Test
    void aBadSignatureIsInvalid() {
        Event good = alice.sign(now, 1, List.of(), "hello");
        Event other = Keys.fromSeed(2).sign(now, 1, List.of(), "other");
        Event forged = Event.of(good.id(), good.pubkey(), good.createdAt(), 1, List.of(), "hello", other.sig());
        assertThat(ok(forged)).containsExactly("OK", good.id(), false, "invalid: signature does not verify");
        assertThat(relay.events.size()).isZero();
        assertThat(relay.engine.counters().eventsRejected(Prefix.INVALID)).isEqualTo(1);
    }

    @Test
    void createdAtTooFarInTheFutureIsInvalid() {
        assertThat(ok(alice.sign(now + 900, 1, List.of(), "edge")).get(2)).isEqualTo(true);
        List<Object> m = ok(alice.sign(now + 901, 1, List.of(), "late"));
        assertThat(m.get(2)).isEqualTo(false);
        assertThat((String) m.get(3)).startsWith("invalid: created_at is more than 900 seconds in the future");
    }

    @Test
    void oldEventsAreFineButOldEphemeralEventsAreNot() {
        assertThat(ok(alice.sign(now - 10 * 365 * 86400L, 1, List.of(), "old")).get(2))
                .isEqualTo(true);
        assertThat(ok(alice.sign(now - 60, 20001, List.of(), "fresh enough")).get(2))
                .isEqualTo(true);
        List<Object> m = ok(alice.sign(now - 61, 20001, List.of(), "stale"));
        assertThat(m).containsExactly("OK", m.get(1), false, "invalid: ephemeral event is more than 60 seconds old");
    }

    @Test
    void ephemeralEventsAreAcknowledgedAndBroadcastButNeverStored() {
        long listener = relay.connect("192.0.2.9");
        relay.take(listener);
        relay.send(listener, "[\"REQ\",\"live\",{\"kinds\":[25050]}]");
        assertThat(relay.takeOne(listener)).containsExactly("EOSE", "live");
        relay.autoSettle = false;
        Event e = alice.sign(now, 25050, List.of(), "offer");
        relay.publish(conn, e);
        // No commit to wait for: OK and the broadcast come at once.
        assertThat(relay.takeOne(conn)).containsExactly("OK", e.id(), true, "");
        List<Object> delivered = relay.takeOne(listener);
        assertThat(delivered.subList(0, 2)).containsExactly("EVENT", "live");
        assertThat(relay.store.pendingRequests()).isZero();
        relay.autoSettle = true;
        relay.settle();
        assertThat(relay.events.size()).isZero();
        relay.send(listener, "[\"REQ\",\"again\",{\"kinds\":[25050]}]");
        assertThat(relay.takeOne(listener)).containsExactly("EOSE", "again");
        assertThat(relay.engine.counters().eventsEphemeral()).isEqualTo(1);
    }

    @Test
    void aStoredEventIsBroadcastOnlyAfterItsCommit() {
        long listener = relay.subscriber("192.0.2.9", "s", "{\"kinds\":[1],\"limit\":0}");
        relay.autoSettle = false;
        Event e = alice.sign(now, 1, List.of(), "hi");
        relay.publish(conn, e);
        assertThat(relay.take(listener)).isEmpty();
        relay.settle();
        assertThat(relay.takeOne(listener).subList(0, 2)).containsExactly("EVENT", "s");
    }

    @Test
    void authEventsAreNotAcceptedAsEvents() {
        List<Object> m = ok(alice.sign(now, 22242, List.of(List.of("challenge", "x")), ""));
        assertThat(m.get(2)).isEqualTo(false);
        assertThat(m.get(3)).isEqualTo("invalid: kind 22242 is only accepted in an AUTH message");
    }

    @Test
    void tooManyTagsIsInvalid() {
        NostrHarness small =
                new NostrHarness(NostrConfig.builder().maxEventTags(2).build());
        long c = small.client("192.0.2.1");
        Event e = alice.sign(now, 1, List.of(List.of("t", "a"), List.of("t", "b"), List.of("t", "c")), "");
        small.publish(c, e);
        assertThat(small.takeOne(c)).containsExactly("OK", e.id(), false, "invalid: too many tags (at most 2)");
    }

    @Test
    void malformedEventsGetAnswersAndNothingIsStored() {
        relay.send(conn, "[\"EVENT\",{\"id\":\"" + "a".repeat(64) + "\",\"kind\":\"one\"}]");
        assertThat(relay.takeOne(conn))
                .containsExactly("OK", "a".repeat(64), false, "invalid: kind must be between 0 and 65535");
        relay.send(conn, "[\"EVENT\",{\"kind\":1}]");
        assertThat(relay.takeOne(conn)).containsExactly("NOTICE", "invalid: missing field id");
        relay.send(conn, "not json");
        assertThat(relay.takeOne(conn)).containsExactly("NOTICE", "invalid: malformed JSON");
        relay.send(conn, "[\"HELLO\"]");
        assertThat(relay.takeOne(conn)).containsExactly("NOTICE", "invalid: unknown message type \"HELLO\"");
        assertThat(relay.events.size()).isZero();
    }

    @Test
    void anOversizedMessageGetsANotice() {
        NostrHarness small =
                new NostrHarness(NostrConfig.builder().maxMessageBytes(1024).build());
        long c = small.client("192.0.2.1");
        Event e = alice.sign(now, 1, List.of(), "x".repeat(2000));
        small.publish(c, e);
        assertThat(small.takeOne(c)).containsExactly("NOTICE", "invalid: message too large (at most 1024 bytes)");
        assertThat(small.events.size()).isZero();
    }

    @Test
    void aWriteStillInFlightWhenItsConnectionClosesIsStoredAndBroadcastWithoutOk() {
        long listener = relay.subscriber("192.0.2.9", "s", "{\"limit\":0}");
        relay.autoSettle = false;
        Event e = alice.sign(now, 1, List.of(), "bye");
        relay.publish(conn, e);
        relay.close(conn);
        relay.settle();
        assertThat(relay.take(conn)).isEmpty();
        assertThat(relay.events.contains(e.id())).isTrue();
        assertThat(relay.takeOne(listener).get(0)).isEqualTo("EVENT");
    }

    @Test
    void aStoreErrorIsAnsweredWithItsPrefix() {
        relay.autoSettle = false;
        Event e = alice.sign(now, 1, List.of(), "x");
        relay.publish(conn, e);
        relay.store.close(); // drops the write
        relay.engine.onStoreCompletion(
                new io.tern.nostr.store.StoreCompletion.Written(1, io.tern.nostr.store.WriteOutcome.ERROR, "disk"),
                relay.clock.nowNs());
        relay.drain();
        assertThat(relay.takeOne(conn)).containsExactly("OK", e.id(), false, "error: could not store the event");
    }
}
