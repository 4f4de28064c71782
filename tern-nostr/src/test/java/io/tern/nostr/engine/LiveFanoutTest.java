package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveFanoutTest {
    private final Keys peer = Keys.fromSeed(1);

    @Test
    void anEphemeralEventReachesAThousandSubscribersOnceEachSharingOneBody() {
        NostrHarness relay = NostrHarness.withDefaults();
        String room = "b".repeat(64);
        long[] subscribers = new long[1000];
        for (int i = 0; i < subscribers.length; i++) {
            subscribers[i] = relay.connect("10.1." + (i / 250) + "." + (i % 250));
            // Two filters that both match: still one delivery.
            relay.send(
                    subscribers[i],
                    "[\"REQ\",\"rv\",{\"kinds\":[25050],\"#p\":[\"" + room + "\"],\"limit\":0},"
                            + "{\"kinds\":[25050],\"limit\":0}]");
        }
        long elsewhere = relay.connect("10.0.0.2");
        relay.send(elsewhere, "[\"REQ\",\"other\",{\"kinds\":[1]}]");
        for (long s : subscribers) {
            relay.take(s);
        }
        relay.take(elsewhere);
        long publisher = relay.connect("10.0.0.3");
        relay.take(publisher);

        Event offer = peer.sign(relay.clock.epochSeconds(), 25050, List.of(List.of("p", room)), "sdp");
        byte[] msg = Keys.eventMessage(offer).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        relay.engine.onMessage(publisher, msg, 0, msg.length, relay.clock.nowNs());
        List<Event> published = new ArrayList<>();
        List<NostrOutput.Broadcast> broadcasts = new ArrayList<>();
        NostrOutput o;
        while ((o = relay.engine.poll()) != null) {
            switch (o) {
                case NostrOutput.Publish p -> published.add(p.event());
                case NostrOutput.Broadcast b -> broadcasts.add(b);
                case NostrOutput.Send send -> {
                    assertThat(send.connectionId()).isEqualTo(publisher);
                    assertThat(send.text()).isEqualTo("[\"OK\",\"" + offer.id() + "\",true,\"\"]");
                }
                default -> throw new AssertionError("unexpected " + o);
            }
        }
        assertThat(broadcasts).as("one output states the whole broadcast").hasSize(1);
        NostrOutput.Broadcast b = broadcasts.get(0);
        assertThat(b.connectionIds()).containsExactlyInAnyOrder(subscribers).doesNotContain(elsewhere);
        String expected =
                "[\"EVENT\",\"rv\"," + new String(offer.json(), java.nio.charset.StandardCharsets.UTF_8) + "]";
        for (int i = 0; i < b.recipients(); i++) {
            assertThat(b.sendTo(i).text()).isEqualTo(expected);
        }
        assertThat(published).hasSize(1);
        assertThat(b.body())
                .as("the event's one JSON array, not a copy")
                .isSameAs(published.get(0).json());
        assertThat(relay.engine.counters().liveDeliveries()).isEqualTo(1000);
        assertThat(relay.engine.counters().eventsBroadcast()).isEqualTo(1);
        assertThat(published).as("once, for the fleet's bus").containsExactly(offer);
    }

    @Test
    void eachSubscriptionOfAConnectionGetsItsOwnCopy() {
        NostrHarness relay = NostrHarness.withDefaults();
        long c = relay.connect();
        relay.send(c, "[\"REQ\",\"a\",{\"authors\":[\"" + peer.pubkey() + "\"],\"limit\":0}]");
        relay.send(c, "[\"REQ\",\"b\",{\"kinds\":[1],\"limit\":0}]");
        relay.send(c, "[\"REQ\",\"c\",{\"kinds\":[2],\"limit\":0}]");
        relay.take(c);
        relay.publish(c, peer.sign(relay.clock.epochSeconds(), 1, List.of(), "x"));
        assertThat(relay.takeParsed(c))
                .extracting(m -> m.get(0) + ":" + (m.get(0).equals("EVENT") ? m.get(1) : ""))
                .containsExactlyInAnyOrder("OK:", "EVENT:a", "EVENT:b");
    }

    @Test
    void aLiveEventIsOneBroadcastAStoredAnswerIsASend() {
        NostrHarness relay = NostrHarness.withDefaults();
        long publisher = relay.client("10.0.0.3");
        long live = relay.subscriber("10.0.0.4", "live", "{\"kinds\":[1],\"limit\":0}");
        long other = relay.subscriber("10.0.0.5", "live", "{\"kinds\":[1],\"limit\":0}");
        relay.broadcasts.clear();
        relay.publish(publisher, peer.sign(relay.clock.epochSeconds(), 1, List.of(), "x"));
        assertThat(relay.broadcasts).hasSize(1);
        assertThat(relay.broadcasts.get(0).connectionIds()).containsExactly(live, other);

        relay.broadcasts.clear();
        long late = relay.client("10.0.0.6");
        relay.send(late, "[\"REQ\",\"stored\",{\"kinds\":[1]}]");
        assertThat(relay.take(late)).hasSize(2);
        assertThat(relay.broadcasts)
                .as("a stored event answers one query: no broadcast")
                .isEmpty();
    }
}
