package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.NostrHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NIP-40 through the engine, on the fake clock. */
class ExpirationTest extends ClientFixture {
    private Event expiring(long expiration) {
        return alice.sign(now, 1, List.of(List.of("expiration", Long.toString(expiration))), "brief");
    }

    private int storedCount() {
        relay.send(conn, "[\"REQ\",\"q\",{\"kinds\":[1]}]");
        int n = relay.take(conn).size() - 1;
        relay.send(conn, "[\"CLOSE\",\"q\"]");
        return n;
    }

    @Test
    void anAlreadyExpiredEventIsRefused() {
        Event e = expiring(now);
        relay.publish(conn, e);
        assertThat(relay.takeOne(conn)).containsExactly("OK", e.id(), false, "invalid: event has expired");
    }

    @Test
    void anEventIsHiddenOnceItExpiresAndPurgedAtThePurgeDeadline() {
        Event e = expiring(now + 30);
        relay.publish(conn, e);
        assertThat(relay.takeOne(conn).get(2)).isEqualTo(true);
        assertThat(storedCount()).isEqualTo(1);
        relay.clock.advanceSeconds(30);
        assertThat(storedCount()).as("hidden at its expiration").isZero();
        assertThat(relay.events.contains(e.id()))
                .as("still on disk until the purge")
                .isTrue();
        long purgeAt = relay.engine.nextDeadlineNs();
        assertThat(purgeAt).isEqualTo(io.tern.testkit.FakeClock.START_NS + 60_000_000_000L);
        relay.advanceMillis((purgeAt - relay.clock.nowNs()) / 1_000_000);
        assertThat(relay.events.contains(e.id())).isFalse();
        assertThat(relay.engine.nextDeadlineNs()).isEqualTo(purgeAt + 60_000_000_000L);
    }

    @Test
    void withNip40OffExpirationIsIgnored() {
        NostrHarness off = new NostrHarness(NostrConfig.builder().nip40(false).build());
        long c = off.client("192.0.2.1");
        Event e = expiring(now - 1);
        off.publish(c, e);
        assertThat(off.takeOne(c).get(2)).isEqualTo(true);
        off.send(c, "[\"REQ\",\"q\",{}]");
        assertThat(off.takeParsed(c)).hasSize(2);
        assertThat(off.engine.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }
}
