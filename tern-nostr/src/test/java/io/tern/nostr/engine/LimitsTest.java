package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bad-input limits: subscriptions, floods, connections per IP, slow readers. */
class LimitsTest {
    @Test
    void tenThousandSubscriptionsOnOneConnection() {
        NostrHarness relay = withRates();
        long greedy = relay.client("192.0.2.1");
        long bystander = relay.client("192.0.2.2");
        for (int i = 0; i < 10_000; i++) {
            relay.send(greedy, "[\"REQ\",\"s" + i + "\",{\"kinds\":[1],\"limit\":0}]");
        }
        List<List<Object>> answers = relay.takeParsed(greedy);
        assertThat(answers).hasSize(10_000);
        assertThat(answers.subList(0, 200)).allSatisfy(m -> assertThat(m.get(0)).isEqualTo("EOSE"));
        assertThat(answers.subList(200, 10_000))
                .allSatisfy(m -> assertThat(m)
                        .containsExactly("CLOSED", m.get(1), "blocked: too many open subscriptions (at most 200)"));
        assertThat(relay.engine.counters().subscriptionsOpen()).isEqualTo(200);
        assertThat(relay.engine.counters().subscriptionsRefused()).isEqualTo(9_800);
        assertThat(relay.engine.liveFilters()).isEqualTo(200);
        // Replacing one of the 200 is still allowed (once the REQ rate allows), and other
        // connections are unaffected.
        relay.clock.advanceSeconds(1);
        relay.send(greedy, "[\"REQ\",\"s7\",{\"kinds\":[7],\"limit\":0}]");
        assertThat(relay.takeOne(greedy)).containsExactly("EOSE", "s7");
        relay.send(bystander, "[\"REQ\",\"mine\",{\"limit\":0}]");
        assertThat(relay.takeOne(bystander)).containsExactly("EOSE", "mine");
        // One event reaches each of the 200 subscriptions once.
        Event e = Keys.fromSeed(1).sign(relay.clock.epochSeconds(), 1, List.of(), "hello");
        relay.publish(bystander, e);
        assertThat(relay.take(greedy)).hasSize(199);
    }

    /** The rates these tests count against (the defaults are larger). */
    private static NostrHarness withRates() {
        return new NostrHarness(NostrConfig.builder()
                .eventRatePerIp(50, 200)
                .eventRatePerPubkey(20, 100)
                .reqRatePerIp(20, 200)
                .build());
    }

    @Test
    void aFloodOfEventsFromOneAddressIsRateLimited() {
        NostrHarness relay = withRates();
        long flooder = relay.client("198.51.100.1");
        long neighbour = relay.client("198.51.100.2");
        long now = relay.clock.epochSeconds();
        List<Keys> keys = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            keys.add(Keys.fromSeed(100 + k));
        }
        int accepted = 0;
        int limited = 0;
        for (int i = 0; i < 1000; i++) {
            Event e = keys.get(i % 20).sign(now, 1, List.of(), "flood " + i);
            relay.publish(flooder, e);
            List<Object> ok = relay.takeOne(flooder);
            if (Boolean.TRUE.equals(ok.get(2))) {
                accepted++;
            } else {
                assertThat(ok.get(3)).isEqualTo("rate-limited: too many events from your address, slow down");
                limited++;
            }
        }
        assertThat(accepted).isEqualTo(200);
        assertThat(limited).isEqualTo(800);
        assertThat(relay.events.size()).isEqualTo(200);
        assertThat(relay.engine.counters().eventsRejected(Prefix.RATE_LIMITED)).isEqualTo(800);
        // Another address is not affected.
        Event calm = Keys.fromSeed(5).sign(now, 1, List.of(), "calm");
        relay.publish(neighbour, calm);
        assertThat(relay.takeOne(neighbour)).containsExactly("OK", calm.id(), true, "");
        // The bucket refills at 50 events per second.
        relay.clock.advanceSeconds(1);
        int refilled = 0;
        for (int i = 0; i < 100; i++) {
            relay.publish(flooder, keys.get(i % 20).sign(now, 1, List.of(), "later " + i));
            if (Boolean.TRUE.equals(relay.takeOne(flooder).get(2))) {
                refilled++;
            }
        }
        assertThat(refilled).isEqualTo(50);
    }

    @Test
    void onePubkeyIsRateLimitedAcrossAddresses() {
        NostrHarness relay = withRates();
        Keys spammer = Keys.fromSeed(1);
        long now = relay.clock.epochSeconds();
        int accepted = 0;
        for (int ip = 0; ip < 3; ip++) {
            long c = relay.connect("203.0.113." + ip);
            relay.take(c);
            for (int i = 0; i < 60; i++) {
                relay.publish(c, spammer.sign(now, 1, List.of(), ip + "/" + i));
                List<Object> ok = relay.takeOne(c);
                if (Boolean.TRUE.equals(ok.get(2))) {
                    accepted++;
                } else {
                    assertThat(ok.get(3)).isEqualTo("rate-limited: too many events from this pubkey, slow down");
                }
            }
        }
        assertThat(accepted).isEqualTo(100);
    }

    @Test
    void reqsAreRateLimitedPerAddress() {
        NostrHarness relay =
                new NostrHarness(NostrConfig.builder().reqRatePerIp(1, 3).build());
        long c = relay.client("192.0.2.1");
        for (int i = 0; i < 3; i++) {
            relay.send(c, "[\"REQ\",\"same\",{\"limit\":0}]");
            assertThat(relay.takeOne(c).get(0)).isEqualTo("EOSE");
        }
        relay.send(c, "[\"REQ\",\"same\",{\"limit\":0}]");
        assertThat(relay.takeOne(c))
                .containsExactly("CLOSED", "same", "rate-limited: too many subscriptions opened, slow down");
        // the refused REQ also ended the subscription it would have replaced
        assertThat(relay.engine.counters().subscriptionsOpen()).isZero();
    }

    @Test
    void connectionsPerAddressAreCounted() {
        NostrHarness relay = NostrHarness.withDefaults();
        for (int i = 1; i <= 64; i++) {
            assertThat(relay.open(i, "192.0.2.10", "h")).isEqualTo(Admission.ACCEPTED);
        }
        assertThat(relay.open(65, "192.0.2.10", "h")).isEqualTo(Admission.TOO_MANY_FROM_IP);
        assertThat(relay.open(66, "192.0.2.11", "h")).isEqualTo(Admission.ACCEPTED);
        assertThat(relay.take(65)).as("a refused connection gets nothing").isEmpty();
        relay.close(3);
        assertThat(relay.open(67, "192.0.2.10", "h")).isEqualTo(Admission.ACCEPTED);
        assertThat(relay.open(67, "192.0.2.12", "h")).isEqualTo(Admission.DUPLICATE_ID);
        assertThat(relay.engine.counters().connectionsRefused()).isEqualTo(1);
        assertThat(relay.engine.connectionCount()).isEqualTo(65);
    }

    @Test
    void aSlowReaderIsDisconnectedAndForgotten() {
        NostrHarness relay = NostrHarness.withDefaults();
        long slow = relay.connect("192.0.2.1");
        relay.take(slow);
        relay.send(slow, "[\"REQ\",\"s\",{\"limit\":0}]");
        relay.take(slow);
        relay.engine.onBacklog(slow, 4L * 1024 * 1024, relay.clock.nowNs());
        relay.drain();
        assertThat(relay.disconnect(slow)).isNull();
        relay.engine.onBacklog(slow, 4L * 1024 * 1024 + 1, relay.clock.nowNs());
        relay.drain();
        NostrOutput.Disconnect d = relay.disconnect(slow);
        assertThat(d).isNotNull();
        assertThat(d.closeCode()).isEqualTo(NostrEngine.CLOSE_SLOW_READER);
        assertThat(relay.engine.counters().slowReaderDisconnects()).isEqualTo(1);
        assertThat(relay.engine.counters().subscriptionsOpen()).isZero();
        assertThat(relay.engine.connectionCount()).isZero();
        // messages for it are ignored now
        relay.send(slow, "[\"REQ\",\"t\",{}]");
        assertThat(relay.take(slow)).isEmpty();
    }

    @Test
    void messagesForUnknownConnectionsAreIgnored() {
        NostrHarness relay = NostrHarness.withDefaults();
        relay.send(42, "[\"REQ\",\"t\",{}]");
        relay.engine.onClose(42, relay.clock.nowNs());
        relay.engine.onBacklog(42, Long.MAX_VALUE, relay.clock.nowNs());
        relay.drain();
        assertThat(relay.take(42)).isEmpty();
        assertThat(relay.disconnect(42)).isNull();
    }
}
