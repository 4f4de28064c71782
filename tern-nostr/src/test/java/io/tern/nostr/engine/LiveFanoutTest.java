package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
        Map<byte[], Boolean> bodies = new IdentityHashMap<>();
        int deliveries = 0;
        NostrOutput o;
        List<Event> published = new ArrayList<>();
        while ((o = relay.engine.poll()) != null) {
            if (o instanceof NostrOutput.Publish p) {
                published.add(p.event());
                continue;
            }
            NostrOutput.Send send = (NostrOutput.Send) o;
            if (send.connectionId() == publisher) {
                assertThat(send.text()).isEqualTo("[\"OK\",\"" + offer.id() + "\",true,\"\"]");
                continue;
            }
            assertThat(send.connectionId()).isNotEqualTo(elsewhere);
            assertThat(send.text())
                    .isEqualTo("[\"EVENT\",\"rv\"," + new String(offer.json(), java.nio.charset.StandardCharsets.UTF_8)
                            + "]");
            bodies.put(send.body(), true);
            assertThat(send.broadcastLeft())
                    .as("the broadcast counts its sends down to its last")
                    .isEqualTo(1000 - deliveries);
            deliveries++;
        }
        assertThat(deliveries).isEqualTo(1000);
        assertThat(bodies).as("one event body shared by every delivery").hasSize(1);
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
    void onlyALiveBroadcastCountsItsSends() {
        NostrHarness relay = NostrHarness.withDefaults();
        long publisher = relay.client("10.0.0.3");
        long live = relay.subscriber("10.0.0.4", "live", "{\"kinds\":[1],\"limit\":0}");
        long other = relay.subscriber("10.0.0.5", "live", "{\"kinds\":[1],\"limit\":0}");
        relay.sends.clear();
        relay.publish(publisher, peer.sign(relay.clock.epochSeconds(), 1, List.of(), "x"));
        assertThat(relay.sends)
                .extracting(s -> s.connectionId() + ":" + s.broadcastLeft())
                .as("the OK is the publisher's own; the event goes to two, counted down")
                .containsExactly(publisher + ":0", live + ":2", other + ":1");

        relay.sends.clear();
        long late = relay.client("10.0.0.6");
        relay.send(late, "[\"REQ\",\"stored\",{\"kinds\":[1]}]");
        assertThat(relay.take(late)).hasSize(2);
        assertThat(relay.sends)
                .as("a stored event answers one query: no broadcast")
                .extracting(NostrOutput.Send::broadcastLeft)
                .containsOnly(0);
    }
}
