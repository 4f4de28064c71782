package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NIP-45 COUNT. */
class CountTest {
    private final Keys alice = Keys.fromSeed(1);
    private final Keys bob = Keys.fromSeed(2);

    @Test
    void countsDistinctStoredEventsMatchingAnyFilter() {
        NostrHarness relay = NostrHarness.withDefaults();
        long c = relay.client("192.0.2.1");
        long now = relay.clock.epochSeconds();
        for (int i = 0; i < 5; i++) {
            relay.publish(c, alice.sign(now - i, 1, List.of(), "a" + i));
        }
        relay.publish(c, bob.sign(now, 7, List.of(), "b"));
        relay.take(c);
        relay.send(c, "[\"COUNT\",\"n\",{\"authors\":[\"" + alice.pubkey() + "\"]},{\"kinds\":[1,7],\"limit\":1}]");
        assertThat(relay.takeOne(c)).containsExactly("COUNT", "n", Map.of("count", 6L));
        relay.send(c, "[\"COUNT\",\"none\",{\"ids\":[]}]");
        assertThat(relay.takeOne(c)).containsExactly("COUNT", "none", Map.of("count", 0L));
        assertThat(relay.engine.counters().counts()).isEqualTo(2);
    }

    @Test
    void countCanBeSwitchedOff() {
        NostrHarness relay = new NostrHarness(NostrConfig.builder().nip45(false).build());
        long c = relay.client("192.0.2.1");
        relay.send(c, "[\"COUNT\",\"n\",{}]");
        assertThat(relay.takeOne(c))
                .containsExactly("CLOSED", "n", "invalid: COUNT (NIP-45) is not enabled on this relay");
    }

    @Test
    void aCountThatTakesTooLongIsClosed() {
        NostrHarness relay = NostrHarness.withDefaults();
        long c = relay.client("192.0.2.1");
        relay.autoSettle = false;
        relay.send(c, "[\"COUNT\",\"n\",{}]");
        relay.advanceMillis(10_000);
        assertThat(relay.takeOne(c)).containsExactly("CLOSED", "n", "error: the count took too long");
    }
}
