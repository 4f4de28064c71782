package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.netty.http.SharedBody;
import io.tern.testkit.Await;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the nginx harness with Tern's HTTP server: 50 viewers asking nginx at once for one URL
 * that the origin holds (a blocking reload) reach the origin as one request, and an immutable
 * object is served from nginx's cache the second time. The test counts the requests that reach
 * the origin.
 */
class NginxCacheTest {
    private static final int VIEWERS = 50;

    private final AtomicInteger heldHits = new AtomicInteger();
    private final AtomicInteger immutableHits = new AtomicInteger();
    private final BlockingQueue<HttpExchange> held = new LinkedBlockingQueue<>();
    private SharedBody playlist;
    private SharedBody part;
    private HttpServer origin;
    private NginxCache nginx;

    @BeforeEach
    void start() throws Exception {
        NginxCache.require();
        playlist = SharedBody.utf8(
                "#EXTM3U\n#EXT-X-VERSION:9\n# the playlist a blocking reload waited for\n",
                "application/vnd.apple.mpegurl");
        part = SharedBody.of(new byte[32 * 1024], "video/mp4");
        HttpRoutes routes = HttpRoutes.builder()
                .get("/live/cam1/index.m3u8", "playlist", ex -> {
                    heldHits.incrementAndGet();
                    if (ex.defer(20, TimeUnit.SECONDS, null)) {
                        held.add(ex);
                    }
                })
                .get("/live/cam1/part7.m4s", "part", ex -> {
                    immutableHits.incrementAndGet();
                    ex.respond(part, CacheControl.immutable());
                })
                .build();
        origin = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .start();
        nginx = NginxCache.start(origin.port());
    }

    @AfterEach
    void stop() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (origin != null) {
            origin.close();
            playlist.release();
            part.release();
        }
    }

    @Test
    void fiftyViewersOfOneHeldUrlReachTheOriginOnce() throws Exception {
        String url = nginx.url("/live/cam1/index.m3u8?_HLS_msn=7&_HLS_part=2");
        try (HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build()) {
            List<CompletableFuture<HttpResponse<String>>> viewers = new ArrayList<>();
            for (int i = 0; i < VIEWERS; i++) {
                viewers.add(client.sendAsync(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            HttpExchange first = held.poll(15, TimeUnit.SECONDS);
            assertThat(first).as("nginx passed one request to the origin").isNotNull();
            awaitViewersInsideNginx();
            assertThat(heldHits.get())
                    .as("while the others wait on the cache lock")
                    .isEqualTo(1);
            first.respond(playlist, CacheControl.maxAge(6));

            Map<String, Integer> cacheStatus = new TreeMap<>();
            for (CompletableFuture<HttpResponse<String>> viewer : viewers) {
                HttpResponse<String> response = viewer.get(30, TimeUnit.SECONDS);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).contains("the playlist a blocking reload waited for");
                cacheStatus.merge(
                        response.headers().firstValue("x-cache-status").orElse("none"), 1, Integer::sum);
            }
            assertThat(heldHits.get())
                    .as("origin requests for %d viewers", VIEWERS)
                    .isEqualTo(1);
            assertThat(held).isEmpty();
            assertThat(cacheStatus).as("nginx's X-Cache-Status").isEqualTo(Map.of("HIT", VIEWERS - 1, "MISS", 1));
            assertThat(origin.counters().requests("playlist")).isEqualTo(1);
        }
    }

    @Test
    void anImmutableObjectIsServedFromTheCacheTheSecondTime() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(nginx.url("/live/cam1/part7.m4s")))
                    .build();
            HttpResponse<byte[]> first = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<byte[]> second = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            assertThat(first.headers().firstValue("x-cache-status")).hasValue("MISS");
            assertThat(second.headers().firstValue("x-cache-status")).hasValue("HIT");
            assertThat(second.body()).hasSize(32 * 1024);
            assertThat(second.headers().firstValue("cache-control")).hasValue("public, max-age=31536000, immutable");
        }
        assertThat(immutableHits.get()).as("origin requests for two rounds").isEqualTo(1);
    }

    /** Polls nginx's stub_status until every viewer's connection is inside nginx, waiting on the lock. */
    private void awaitViewersInsideNginx() throws Exception {
        int[] writing = {0};
        Await.await(
                "all " + VIEWERS + " viewers inside nginx",
                Duration.ofSeconds(20),
                Await.DEFAULT_POLL,
                () -> (writing[0] = nginx.writing() - 1) >= VIEWERS, // not counting the status request itself
                () -> writing[0] + " viewers" + nginx.log("error.log"));
    }
}
