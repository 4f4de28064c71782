package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fleet seam: {@link NostrEngine#onPeerEvent}, an event another node stored or published. */
class PeerEventTest {
    private final Keys bob = Keys.fromSeed(2);
    private NostrHarness relay;
    private long notes;
    private long other;

    @BeforeEach
    void subscribe() {
        relay = NostrHarness.withDefaults();
        notes = relay.subscriber("10.0.0.1", "notes", "{\"kinds\":[1],\"limit\":0}");
        other = relay.subscriber("10.0.0.2", "other", "{\"kinds\":[7],\"limit\":0}");
        relay.storeRequests.clear();
    }

    private boolean peer(Event e) {
        boolean broadcast = relay.engine.onPeerEvent(e, relay.clock.nowNs());
        relay.drain();
        return broadcast;
    }

    private static String eventTo(String subscriptionId, Event e) {
        return "[\"EVENT\",\"" + subscriptionId + "\"," + new String(e.json(), StandardCharsets.UTF_8) + "]";
    }

    @Test
    void aPeerEventReachesMatchingLiveSubscriptionsWithoutBeingStored() {
        Event e = bob.sign(relay.clock.epochSeconds(), 1, List.of(), "from node B");
        assertThat(peer(e)).isTrue();
        assertThat(relay.take(notes)).containsExactly(eventTo("notes", e));
        assertThat(relay.take(other)).isEmpty();
        assertThat(relay.storeRequests).as("nothing asked of the store").isEmpty();
        relay.settle();
        assertThat(relay.events.size()).isZero();
        assertThat(relay.engine.counters().peerEvents()).isEqualTo(1);
        assertThat(relay.engine.counters().eventsStored()).isZero();
        assertThat(relay.published).as("not sent back to the bus").isEmpty();
    }

    @Test
    void anEphemeralEventFromAClientIsPublishedForTheBusOnce() {
        long publisher = relay.client("10.0.0.3");
        Event offer = bob.sign(relay.clock.epochSeconds(), 25050, List.of(), "offer");
        assertThat(relay.publishOk(publisher, offer)).containsExactly("OK", offer.id(), true, "");
        assertThat(relay.published).containsExactly(offer);
        assertThat(relay.storeRequests).as("ephemeral: never stored").isEmpty();
        assertThat(relay.publishOk(publisher, offer)).containsExactly("OK", offer.id(), true, "");
        assertThat(relay.published).as("a repeat is not published again").containsExactly(offer);
    }

    @Test
    void aStoredEventIsNotPublishedTheStoreCarriesIt() {
        long publisher = relay.client("10.0.0.3");
        Event e = bob.sign(relay.clock.epochSeconds(), 1, List.of(), "stored here");
        assertThat(relay.publishOk(publisher, e)).containsExactly("OK", e.id(), true, "");
        assertThat(relay.events.size()).isEqualTo(1);
        assertThat(relay.published).isEmpty();
    }

    @Test
    void theSamePeerEventTwiceIsDeliveredOnce() {
        Event e = bob.sign(relay.clock.epochSeconds(), 1, List.of(), "twice on the bus");
        assertThat(peer(e)).isTrue();
        assertThat(peer(e)).isFalse();
        assertThat(relay.take(notes)).containsExactly(eventTo("notes", e));
        assertThat(relay.engine.counters().broadcastsSuppressed()).isEqualTo(1);
    }

    @Test
    void theBusEchoOfAnEventCommittedHereIsNotDeliveredAgain() {
        long publisher = relay.client("10.0.0.3");
        Event e = bob.sign(relay.clock.epochSeconds(), 1, List.of(), "mine");
        assertThat(relay.publishOk(publisher, e)).containsExactly("OK", e.id(), true, "");
        assertThat(relay.take(notes)).containsExactly(eventTo("notes", e));
        assertThat(peer(e)).as("the echo").isFalse();
        assertThat(relay.take(notes)).isEmpty();
    }

    @Test
    void anEphemeralEventFromABusAndFromAClientGoesOutOnce() {
        long publisher = relay.client("10.0.0.3");
        relay.send(notes, "[\"REQ\",\"rv\",{\"kinds\":[25050],\"limit\":0}]");
        relay.take(notes);
        Event offer = bob.sign(relay.clock.epochSeconds(), 25050, List.of(), "offer");
        assertThat(peer(offer)).isTrue();
        assertThat(relay.publishOk(publisher, offer)).containsExactly("OK", offer.id(), true, "");
        assertThat(relay.take(notes)).containsExactly(eventTo("rv", offer));
        assertThat(relay.published).as("it came from the bus: not sent back").isEmpty();
    }

    @Test
    void aPeerEventDuringAStoredPhaseIsNotSentAgainByTheQuery() {
        relay.autoSettle = false;
        Event e = bob.sign(relay.clock.epochSeconds(), 1, List.of(), "stored on B, seen here twice");
        relay.events.write(e);
        long late = relay.client("10.0.0.4");
        relay.send(late, "[\"REQ\",\"s\",{\"kinds\":[1]}]");
        assertThat(peer(e)).isTrue();
        relay.settle();
        assertThat(relay.take(late)).containsExactly(eventTo("s", e), "[\"EOSE\",\"s\"]");
    }

    @Test
    void anExpiredPeerEventIsDropped() {
        long now = relay.clock.epochSeconds();
        Event e = bob.sign(now - 10, 1, List.of(List.of("expiration", String.valueOf(now - 1))), "gone");
        assertThat(peer(e)).isFalse();
        assertThat(relay.take(notes)).isEmpty();
    }

    @Test
    void theWindowOfRecentIdsIsBounded() {
        RecentIds recent = new RecentIds(3);
        byte[][] ids = new byte[5][32];
        for (int i = 0; i < ids.length; i++) {
            ids[i][0] = (byte) i;
        }
        assertThat(recent.add(ids[0])).isTrue();
        assertThat(recent.add(ids[1])).isTrue();
        assertThat(recent.add(ids[2])).isTrue();
        assertThat(recent.add(ids[0])).as("still remembered").isFalse();
        assertThat(recent.add(ids[3])).isTrue();
        assertThat(recent.size()).isEqualTo(3);
        assertThat(recent.add(ids[0]))
                .as("the oldest left when the fourth came")
                .isTrue();
        assertThat(recent.add(ids[2])).isFalse();
    }
}
