package io.tern.netty.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.event.Event;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.nostr.testing.Keys;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The relay on its own port over real sockets, with the SQLite store: clients on the engine's
 * loop and on another, NIP-11 and CORS on the same port, the per-IP limit.
 */
@Timeout(60)
class NostrRelayTest {
    private static final Keys ALICE = Keys.fromSeed(1);

    @TempDir
    Path dir;

    private NostrServer server;
    private final WebSocketClient client = new WebSocketClient(1, WebSocketConfig.defaults());

    @AfterEach
    void stop() {
        client.close();
        if (server != null) {
            server.close();
        }
    }

    static NostrRelay.StoreOpener sqlite(Path file, NostrConfig config) {
        return sink -> SqliteEventStore.open(SqliteStoreConfig.defaults(file), config.nip09(), sink, System::nanoTime);
    }

    private void start(int threads, NostrConfig config) throws Exception {
        server = NostrServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                threads,
                config,
                sqlite(dir.resolve("relay.db"), config),
                Keys.secp(),
                () -> System.currentTimeMillis() / 1000,
                "test");
    }

    private URI uri() {
        return URI.create("ws://127.0.0.1:" + server.port() + "/");
    }

    static Event note(String content) {
        return ALICE.sign(System.currentTimeMillis() / 1000, 1, List.of(List.of("t", "tern")), content);
    }

    /** GETs the NIP-11 document and checks its status, media type and CORS header. */
    static HttpResponse<String> nip11Document(HttpClient http, URI url) throws Exception {
        HttpResponse<String> document = http.send(
                HttpRequest.newBuilder(url)
                        .header("Accept", "application/nostr+json")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(document.statusCode()).isEqualTo(200);
        assertThat(document.headers().firstValue("content-type")).hasValue("application/nostr+json");
        assertThat(document.headers().firstValue("access-control-allow-origin")).hasValue("*");
        return document;
    }

    /** Sends a browser's CORS preflight and checks that it is answered with 204 and CORS headers. */
    static HttpResponse<String> corsPreflight(HttpClient http, URI url) throws Exception {
        HttpResponse<String> preflight = http.send(
                HttpRequest.newBuilder(url)
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .header("Origin", "https://client.example")
                        .header("Access-Control-Request-Method", "GET")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("access-control-allow-origin"))
                .hasValue("*");
        return preflight;
    }

    static String json(Event event) {
        return new String(event.json(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "threads={0}")
    @ValueSource(ints = {1, 2})
    void eventsAreAcknowledgedStoredQueriedAndBroadcastAcrossConnections(int threads) throws Exception {
        start(threads, NostrConfig.defaults());
        // With two loops, consecutive connections land on different loops: a hand-off each way.
        try (NostrClient publisher = new NostrClient(client, uri());
                NostrClient live = new NostrClient(client, uri())) {
            assertThat(publisher.challenge).isNotEqualTo(live.challenge).hasSize(32);
            live.send("[\"REQ\",\"live\",{\"kinds\":[1],\"#t\":[\"tern\"]}]");
            assertThat(live.next()).isEqualTo("[\"EOSE\",\"live\"]");

            Event event = note("hello relay");
            publisher.send(Keys.eventMessage(event));
            assertThat(publisher.next()).isEqualTo("[\"OK\",\"" + event.id() + "\",true,\"\"]");
            assertThat(live.next()).isEqualTo("[\"EVENT\",\"live\"," + json(event) + "]");

            try (NostrClient reader = new NostrClient(client, uri())) {
                reader.send("[\"REQ\",\"past\",{\"authors\":[\"" + ALICE.pubkey() + "\"]}]");
                assertThat(reader.next()).isEqualTo("[\"EVENT\",\"past\"," + json(event) + "]");
                assertThat(reader.next()).isEqualTo("[\"EOSE\",\"past\"]");
            }
            publisher.send(Keys.eventMessage(event));
            assertThat(publisher.next()).startsWith("[\"OK\",\"" + event.id() + "\",true,\"duplicate:");
        }
        assertThat(server.relay().counters().eventsStored()).isEqualTo(1);
        assertThat(server.relay().counters().liveDeliveries()).isEqualTo(1);
    }

    @Test
    void aBinaryMessageClosesTheConnectionWith1003() throws Exception {
        start(1, NostrConfig.defaults());
        NostrClient binary = new NostrClient(client, uri());
        binary.sendBinary(new byte[] {1, 2, 3});
        assertThat(binary.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1003);
    }

    @Test
    void nip11AndCorsAreServedOnTheRelaysPort() throws Exception {
        start(1, NostrConfig.builder().maxSubscriptions(7).build());
        try (HttpClient http = HttpClient.newHttpClient()) {
            URI url = URI.create("http://127.0.0.1:" + server.port() + "/");
            HttpResponse<String> document = nip11Document(http, url);
            assertThat(document.body()).contains("\"supported_nips\":[1,9,11,40,42,45]", "\"max_subscriptions\":7");

            HttpResponse<String> preflight = corsPreflight(http, url);
            assertThat(preflight.headers().firstValue("access-control-allow-methods"))
                    .hasValue("GET, OPTIONS");

            HttpResponse<String> page =
                    http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).startsWith("This is a Nostr relay");
        }
    }

    @Test
    void connectionsPastThePerIpLimitAreClosedWith1008AndCountedAsRefused() throws Exception {
        start(1, NostrConfig.builder().maxConnectionsPerIp(2).build());
        try (NostrClient first = new NostrClient(client, uri());
                NostrClient second = new NostrClient(client, uri())) {
            NostrClient third = NostrClient.unchallenged(client, uri());
            assertThat(third.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1008);
            assertThat(server.relay().counters().connectionsRefused()).isEqualTo(1);
            first.send("[\"REQ\",\"s\",{\"limit\":0}]");
            assertThat(first.next()).isEqualTo("[\"EOSE\",\"s\"]");
        }
    }
}
