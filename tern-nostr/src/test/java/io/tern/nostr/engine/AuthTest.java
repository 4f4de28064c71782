package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.NostrHarness;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NIP-42, always on, with each auth mode. */
class AuthTest {
    private final Keys alice = Keys.fromSeed(1);

    private record Client(NostrHarness relay, long conn, String challenge) {}

    private static Client connect(NostrConfig config) {
        NostrHarness relay = new NostrHarness(config);
        long conn = relay.connect();
        List<Object> auth = relay.takeOne(conn);
        return new Client(relay, conn, relay.challengeOf(auth));
    }

    private Event authEvent(Client c, String relayUrl, String challenge, long createdAt) {
        return alice.sign(createdAt, 22242, List.of(List.of("relay", relayUrl), List.of("challenge", challenge)), "");
    }

    private List<Object> auth(Client c, Event e) {
        c.relay.send(c.conn, "[\"AUTH\"," + new String(e.json(), java.nio.charset.StandardCharsets.UTF_8) + "]");
        return c.relay.takeOne(c.conn);
    }

    @Test
    void everyConnectionGetsItsOwnChallenge() {
        NostrHarness relay = NostrHarness.withDefaults();
        long a = relay.connect("192.0.2.1");
        long b = relay.connect("192.0.2.2");
        String ca = relay.challengeOf(relay.takeOne(a));
        String cb = relay.challengeOf(relay.takeOne(b));
        assertThat(ca).hasSize(32).isNotEqualTo(cb);
    }

    @Test
    void authIsAcceptedEvenWhenNothingRequiresIt() {
        Client c = connect(NostrConfig.defaults());
        Event e = authEvent(c, "ws://relay.test:7777", c.challenge, c.relay.clock.epochSeconds());
        assertThat(auth(c, e)).containsExactly("OK", e.id(), true, "");
        assertThat(c.relay.engine.counters().authAccepted()).isEqualTo(1);
    }

    @Test
    void theRelayUrlMustNameTheHostThePortAndTheConfiguredPath() {
        Client c = connect(NostrConfig.defaults());
        long now = c.relay.clock.epochSeconds();
        for (String good : List.of("ws://relay.test:7777", "wss://RELAY.test:7777/", "ws://relay.test:7777/nostr")) {
            assertThat(auth(c, authEvent(c, good, c.challenge, now)).get(2))
                    .as(good)
                    .isEqualTo(true);
        }
        for (String bad : List.of(
                "ws://relay.test",
                "ws://other.test:7777",
                "http://relay.test:7777",
                "relay.test:7777",
                "::not a url")) {
            assertThat(auth(c, authEvent(c, bad, c.challenge, now)))
                    .as(bad)
                    .containsExactly(
                            "OK",
                            authEvent(c, bad, c.challenge, now).id(),
                            false,
                            "invalid: AUTH relay URL does not name this relay");
        }
    }

    @Test
    void aConfiguredPublicUrlIsWhatCounts() {
        Client c = connect(
                NostrConfig.builder().publicUrl("wss://nostr.example.com/relay").build());
        long now = c.relay.clock.epochSeconds();
        assertThat(auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now))
                        .get(2))
                .isEqualTo(false);
        assertThat(auth(c, authEvent(c, "wss://nostr.example.com/", c.challenge, now))
                        .get(2))
                .isEqualTo(false);
        assertThat(auth(c, authEvent(c, "wss://nostr.example.com:443/relay/", c.challenge, now))
                        .get(2))
                .isEqualTo(true);
    }

    @Test
    void theChallengeAndCreatedAtWindowAreChecked() {
        Client c = connect(NostrConfig.defaults());
        long now = c.relay.clock.epochSeconds();
        assertThat(auth(c, authEvent(c, "ws://relay.test:7777", "other", now)).get(3))
                .isEqualTo("invalid: AUTH challenge does not match this connection's");
        assertThat(auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now - 601))
                        .get(3))
                .isEqualTo("invalid: AUTH event created_at is more than 600 seconds from the relay's time");
        assertThat(auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now + 601))
                        .get(2))
                .isEqualTo(false);
        assertThat(auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now - 600))
                        .get(2))
                .isEqualTo(true);
    }

    @Test
    void aForgedOrWrongKindAuthIsRejected() {
        Client c = connect(NostrConfig.defaults());
        long now = c.relay.clock.epochSeconds();
        Event good = authEvent(c, "ws://relay.test:7777", c.challenge, now);
        Event forged = Event.of(good.id(), Keys.fromSeed(9).pubkey(), now, 22242, good.tags(), "", good.sig());
        assertThat(auth(c, forged).get(2)).isEqualTo(false);
        Event kind1 = alice.sign(now, 1, good.tags(), "");
        assertThat(auth(c, kind1).get(3)).isEqualTo("invalid: AUTH needs a kind 22242 event");
        assertThat(c.relay.engine.counters().authRejected()).isEqualTo(2);
    }

    @Test
    void authEventsAreNeverStoredNorBroadcast() {
        Client c = connect(NostrConfig.defaults());
        long listener = c.relay.connect("192.0.2.50");
        c.relay.take(listener);
        c.relay.send(listener, "[\"REQ\",\"all\",{\"limit\":0}]");
        c.relay.take(listener);
        auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, c.relay.clock.epochSeconds()));
        assertThat(c.relay.take(listener)).isEmpty();
        assertThat(c.relay.events.size()).isZero();
    }

    @Test
    void writeModeRequiresAuthForEventsOnly() {
        Client c = connect(NostrConfig.builder().authMode(AuthMode.WRITE).build());
        long now = c.relay.clock.epochSeconds();
        Event note = alice.sign(now, 1, List.of(), "hi");
        c.relay.publish(c.conn, note);
        assertThat(c.relay.takeOne(c.conn))
                .containsExactly(
                        "OK",
                        note.id(),
                        false,
                        "auth-required: this relay only accepts events from authenticated clients (NIP-42)");
        c.relay.send(c.conn, "[\"REQ\",\"r\",{}]");
        assertThat(c.relay.takeOne(c.conn)).containsExactly("EOSE", "r");
        auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now));
        c.relay.publish(c.conn, note);
        assertThat(c.relay.takeParsed(c.conn)).extracting(m -> m.get(0)).contains("OK");
        assertThat(c.relay.events.contains(note.id())).isTrue();
    }

    @Test
    void readModeRequiresAuthForReqAndCount() {
        Client c = connect(NostrConfig.builder().authMode(AuthMode.READ).build());
        long now = c.relay.clock.epochSeconds();
        c.relay.send(c.conn, "[\"REQ\",\"r\",{}]");
        assertThat(c.relay.takeOne(c.conn))
                .containsExactly("CLOSED", "r", "auth-required: this relay only serves authenticated clients (NIP-42)");
        c.relay.send(c.conn, "[\"COUNT\",\"n\",{}]");
        assertThat(c.relay.takeOne(c.conn).subList(0, 2)).containsExactly("CLOSED", "n");
        Event note = alice.sign(now, 1, List.of(), "writing is open");
        c.relay.publish(c.conn, note);
        assertThat(c.relay.takeOne(c.conn)).containsExactly("OK", note.id(), true, "");
        auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now));
        c.relay.send(c.conn, "[\"REQ\",\"r\",{}]");
        assertThat(c.relay.takeParsed(c.conn)).extracting(m -> m.get(0)).containsExactly("EVENT", "EOSE");
    }

    @Test
    void allModeRequiresBoth() {
        Client c = connect(NostrConfig.builder().authMode(AuthMode.ALL).build());
        Event note = alice.sign(c.relay.clock.epochSeconds(), 1, List.of(), "x");
        c.relay.publish(c.conn, note);
        assertThat((String) c.relay.takeOne(c.conn).get(3)).startsWith("auth-required:");
        c.relay.send(c.conn, "[\"REQ\",\"r\",{}]");
        assertThat((String) c.relay.takeOne(c.conn).get(2)).startsWith("auth-required:");
    }

    @Test
    void authenticationIsPerConnection() {
        Client c = connect(NostrConfig.builder().authMode(AuthMode.WRITE).build());
        long now = c.relay.clock.epochSeconds();
        auth(c, authEvent(c, "ws://relay.test:7777", c.challenge, now));
        long other = c.relay.connect("192.0.2.77");
        c.relay.take(other);
        Event note = alice.sign(now, 1, List.of(), "x");
        c.relay.publish(other, note);
        assertThat((String) c.relay.takeOne(other).get(3)).startsWith("auth-required:");
    }

    @Test
    void relayUrlMatching() {
        assertThat(AuthCheck.relayMatches("ws://h:80", null, "h")).isTrue();
        assertThat(AuthCheck.relayMatches("wss://h", null, "h")).isTrue();
        assertThat(AuthCheck.relayMatches("wss://h:8443", null, "h")).isFalse();
        assertThat(AuthCheck.relayMatches("ws://[::1]:7777", null, "[::1]:7777"))
                .isTrue();
        assertThat(AuthCheck.relayMatches("ws://h:7777", null, null)).isFalse();
    }
}
