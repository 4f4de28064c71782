package io.tern.server.nostr.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.message.Prefix;
import io.tern.server.nostr.TestRelay;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Nostr clients against {@code tern nostr} over loopback (scripts in {@code src/test/nostr}):
 * nostr-tools 2.25.2's Relay and SimplePool, its matchFilters as an oracle for REQ and COUNT, NIP-42
 * and NIP-11 as nostr-tools does them, bad input from ws, and two Chromium pages meeting through
 * ephemeral events. Each scenario gets a fresh relay and database.
 */
@Timeout(180)
class NostrClientsTest {
    @TempDir
    Path dir;

    private static long number(Map<String, Object> json, String key) {
        return ((Number) json.get(key)).longValue();
    }

    @Test
    void nostrToolsRelayAndSimplePoolPublishSubscribeAndClose() throws Exception {
        NostrPeers.requireNode();
        try (TestRelay relay = TestRelay.start(dir)) {
            assertThat(relay.startLine).startsWith("Tern Nostr relay on " + relay.url());
            Map<String, Object> result = NostrPeers.run(60, "clients.mjs", "basic", relay.url());
            assertThat(number(result, "live")).isEqualTo(2);
            assertThat(number(result, "stored")).isEqualTo(2);
            assertThat(relay.counters().eventsStored()).isEqualTo(2);
        }
    }

    @Test
    void everyReqAndCountAnswerEqualsMatchFiltersOverWhatWasPublished() throws Exception {
        NostrPeers.requireNode();
        try (TestRelay relay = TestRelay.start(dir)) {
            Map<String, Object> result = NostrPeers.run(150, "clients.mjs", "oracle", relay.url());
            assertThat(number(result, "compared")).isGreaterThanOrEqualTo(100);
            assertThat(number(result, "returned")).isPositive();
            assertThat(relay.counters().internalErrors()).isZero();
        }
    }

    @Test
    void nip42AuthFromNostrToolsUnlocksPublishingUnderAuthWrite() throws Exception {
        NostrPeers.requireNode();
        try (TestRelay relay = TestRelay.start(dir, "--auth", "write")) {
            NostrPeers.run(60, "clients.mjs", "auth", relay.url());
            assertThat(relay.counters().authAccepted()).isEqualTo(2);
            assertThat(relay.counters().authRejected()).isEqualTo(1);
            assertThat(relay.counters().eventsRejected(Prefix.AUTH_REQUIRED)).isEqualTo(1);
            assertThat(relay.counters().eventsStored()).isEqualTo(2);
        }
    }

    @Test
    void nip11IsFetchedWithTheNostrJsonAcceptHeader() throws Exception {
        NostrPeers.requireNode();
        try (TestRelay relay = TestRelay.start(dir, "--name", "rendezvous")) {
            assertThat(NostrPeers.run(60, "clients.mjs", "nip11", relay.url())).containsEntry("name", "rendezvous");
        }
    }

    @Test
    void badInputGetsItsAnswerNothingRefusedIsStoredAndABystanderKeepsItsAnswers() throws Exception {
        NostrPeers.requireNode();
        try (TestRelay relay = TestRelay.start(
                dir,
                "--max-message-bytes",
                "65536",
                "--event-burst-per-ip",
                "100",
                "--events-per-second-per-ip",
                "10")) {
            Map<String, Object> result = NostrPeers.run(120, "clients.mjs", "bad-input", relay.url());
            long accepted = number(result, "floodAccepted");
            assertThat(accepted).isBetween(100L, 140L);
            assertThat(relay.counters().eventsStored()).isEqualTo(accepted);
            assertThat(relay.counters().eventsRejected(Prefix.RATE_LIMITED)).isEqualTo(number(result, "floodLimited"));
            assertThat(relay.counters().subscriptionsRefused()).isGreaterThanOrEqualTo(9_800);
            // Generous for a shared machine: the bystander is answered while 10,000 REQs are refused.
            assertThat(number(result, "worstBystanderMs")).isLessThan(3_000L);
            assertThat(relay.counters().internalErrors()).isZero();
        }
    }

    @Test
    void twoChromiumPagesExchangeAnOfferAndAnAnswerAsEphemeralEvents() throws Exception {
        NostrPeers.requireBrowser();
        try (TestRelay relay = TestRelay.start(dir)) {
            Map<String, Object> result = NostrPeers.run(120, "browser.mjs", relay.url());
            assertThat(result.get("offer")).isNotNull();
            assertThat(relay.counters().eventsEphemeral()).isEqualTo(2);
            assertThat(relay.counters().eventsStored()).isZero();
            assertThat(relay.counters().liveDeliveries()).isEqualTo(4);
        }
    }
}
