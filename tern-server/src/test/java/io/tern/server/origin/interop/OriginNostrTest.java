package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.nostr.interop.NostrPeers;
import io.tern.server.option.ConfigException;
import io.tern.server.origin.harness.Harness;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tern origin --nostr-db}: the Nostr relay on {@code /nostr} of the origin's HTTP port, as
 * nostr-tools 2.25.2 uses it (Relay and SimplePool over {@code ws://HOST:PORT/nostr}, NIP-11 by
 * {@code fetchRelayInformation}), beside the origin's own routes.
 */
@Timeout(180)
class OriginNostrTest {
    @TempDir
    Path dir;

    @Test
    void nostrToolsPublishesAndSubscribesThroughTheOriginsHttpPort() throws Exception {
        NostrPeers.requireNode();
        try (OriginFixture origin = new OriginFixture(
                "nostr-db=" + dir.resolve("relay.db"), "prometheus", "prometheus-port=" + Harness.freePort())) {
            String url = "ws://127.0.0.1:" + origin.server.httpPort() + "/nostr";
            assertThat(origin.server.summary()).contains("Nostr relay on /nostr (database " + dir.resolve("relay.db"));
            Map<String, Object> result = NostrPeers.run(60, "clients.mjs", "basic", url);
            assertThat(((Number) result.get("live")).longValue()).isEqualTo(2);
            assertThat(((Number) result.get("stored")).longValue()).isEqualTo(2);
            assertThat(origin.server.nostrRelay().counters().eventsStored()).isEqualTo(2);
            assertThat(NostrPeers.run(60, "clients.mjs", "nip11", url)).containsEntry("name", "Tern");
            String metrics = origin.get("http://127.0.0.1:" + origin.server.metricsPort() + "/metrics")
                    .body();
            assertThat(metrics).contains("tern_nostr_events_stored_total 2.0").contains("tern_origin_");
        }
    }

    @Test
    void nip11AnswersOnNostrAndTheOriginsRoutesStayAsTheyWere() throws Exception {
        try (OriginFixture origin = new OriginFixture("nostr-db=" + dir.resolve("relay.db"))) {
            HttpResponse<String> document = origin.http.send(
                    HttpRequest.newBuilder(URI.create(origin.url("/nostr")))
                            .header("Accept", "application/nostr+json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(document.statusCode()).isEqualTo(200);
            assertThat(document.headers().firstValue("content-type")).hasValue("application/nostr+json");
            assertThat(document.headers().allValues("access-control-allow-origin"))
                    .as("one CORS header, the origin's policy and NIP-11's agreeing")
                    .containsExactly("*");
            assertThat(document.body()).contains("\"supported_nips\":[1,9,11,40,42,45]");
            HttpResponse<String> plain = origin.get("/nostr");
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.headers().firstValue("content-type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            assertThat(origin.get("/").statusCode())
                    .as("the origin's index page")
                    .isEqualTo(200);
            assertThat(origin.get("/live/none/index.m3u8").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void withoutNostrDbThereIsNoRelay() throws Exception {
        try (OriginFixture origin = new OriginFixture()) {
            assertThat(origin.server.nostrRelay()).isNull();
            assertThat(origin.get("/nostr").statusCode()).isEqualTo(404);
            assertThat(origin.server.summary()).doesNotContain("Nostr");
        }
    }

    @Test
    void aDatabaseThatCannotBeOpenedStopsStartUpNamingTheOption() {
        Path missing = dir.resolve("no-such-dir").resolve("relay.db");
        assertThatThrownBy(() -> new OriginFixture("nostr-db=" + missing).close())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(
                        "Invalid value for option 'nostr-db': '" + missing + "' (cannot open the database");
    }
}
