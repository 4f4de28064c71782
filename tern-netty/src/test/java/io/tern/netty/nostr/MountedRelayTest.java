package io.tern.netty.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.NettyTransports;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpCounters;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.event.Event;
import io.tern.nostr.testing.Keys;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay mounted at {@code /nostr} on an {@link HttpServer} beside an ordinary route, as the
 * origin hosts it: WebSocket clients, NIP-42 against the Host the client used, NIP-11 and CORS on
 * the same path, other routes untouched.
 */
@Timeout(60)
class MountedRelayTest {
    @TempDir
    Path dir;

    @Test
    void theRelayServesItsPathOfAnHttpServerBesideOtherRoutes() throws Exception {
        NostrConfig config = NostrConfig.defaults();
        EventLoopGroup loops = NettyTransports.newGroup(2, "test-origin");
        NostrRelay relay = NostrRelay.open(
                config,
                loops.next(),
                NostrRelayTest.sqlite(dir.resolve("relay.db"), config),
                Keys.secp(),
                () -> System.currentTimeMillis() / 1000,
                "test");
        HttpRoutes.Builder routes = HttpRoutes.builder()
                .get(
                        "/hello",
                        "api",
                        ex -> ex.reply(HttpResponseStatus.OK)
                                .cache(CacheControl.noStore())
                                .send("hello\n"));
        NostrRoutes.mount(routes, "/nostr", relay);
        HttpServer server = HttpServer.builder(new HttpService(routes.build(), HttpLimits.DEFAULTS))
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .eventLoops(loops)
                .start();
        Keys keys = Keys.fromSeed(3);
        String base = "127.0.0.1:" + server.port();
        try (WebSocketClient client = new WebSocketClient(1, WebSocketConfig.defaults());
                HttpClient http = HttpClient.newHttpClient()) {
            for (int i = 0; i < 2; i++) { // on both of the server's loops
                try (NostrClient nostr = new NostrClient(client, URI.create("ws://" + base + "/nostr"))) {
                    long now = System.currentTimeMillis() / 1000;
                    Event auth = keys.sign(
                            now,
                            22242,
                            List.of(List.of("relay", "ws://" + base + "/nostr"), List.of("challenge", nostr.challenge)),
                            "");
                    nostr.send("[\"AUTH\"," + NostrRelayTest.json(auth) + "]");
                    assertThat(nostr.next()).isEqualTo("[\"OK\",\"" + auth.id() + "\",true,\"\"]");
                    Event note = keys.sign(now, 1, List.of(), "beside the origin " + i);
                    nostr.send(Keys.eventMessage(note));
                    assertThat(nostr.next()).isEqualTo("[\"OK\",\"" + note.id() + "\",true,\"\"]");
                    nostr.send("[\"REQ\",\"s\",{\"ids\":[\"" + note.id() + "\"]}]");
                    assertThat(nostr.next()).isEqualTo("[\"EVENT\",\"s\"," + NostrRelayTest.json(note) + "]");
                    assertThat(nostr.next()).isEqualTo("[\"EOSE\",\"s\"]");
                }
            }
            URI nostrUrl = URI.create("http://" + base + "/nostr");
            HttpResponse<String> document = NostrRelayTest.nip11Document(http, nostrUrl);
            assertThat(document.body()).contains("\"supported_nips\":[1,9,11,40,42,45]");
            NostrRelayTest.corsPreflight(http, nostrUrl);
            HttpResponse<String> hello = http.send(
                    HttpRequest.newBuilder(URI.create("http://" + base + "/hello"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(hello.body()).isEqualTo("hello\n");
            assertThat(server.counters().count(HttpCounters.Event.PROTOCOL_UPGRADE))
                    .isEqualTo(2);
            assertThat(relay.counters().authAccepted()).isEqualTo(2);
            assertThat(relay.counters().eventsStored()).isEqualTo(2);
        } finally {
            server.close();
            relay.close();
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
