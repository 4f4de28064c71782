package io.tern.nostr.engine;

import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import org.junit.jupiter.api.BeforeEach;

/** A relay on defaults with one client connected (its AUTH challenge read) and a signing key. */
abstract class ClientFixture {
    final Keys alice = Keys.fromSeed(1);
    NostrHarness relay;
    long conn;
    /** The relay's wall clock at the start, in Unix seconds. */
    long now;

    @BeforeEach
    void connectClient() {
        relay = NostrHarness.withDefaults();
        conn = relay.client("192.0.2.1");
        now = relay.clock.epochSeconds();
    }
}
