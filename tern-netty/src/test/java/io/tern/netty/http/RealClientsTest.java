package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.tern.testkit.TestTls;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server against clients nobody here wrote: curl (HTTP/1.1, h2 over TLS by ALPN, h2c by prior
 * knowledge and by Upgrade), nghttp and h2load (many streams on one connection), and the JDK's
 * HttpClient and WebSocket (h2 over TLS, stream resets, the upgrade seam).
 */
class RealClientsTest {
    private TestOrigin origin;

    @BeforeEach
    void start() throws Exception {
        origin = new TestOrigin(HttpLimits.DEFAULTS);
    }

    @AfterEach
    void stop() throws Exception {
        origin.close();
    }

    private static String curl(String... args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(Peers.require("curl", "curl").toString(), "-sS"));
        command.addAll(List.of(args));
        return Peers.run(30, command.toArray(new String[0]));
    }

    @Test
    void curlReusesOneHttp11ConnectionForSeveralRequests() throws Exception {
        String out = curl("-v", origin.http("/hello"), origin.http("/part"), "-o", "/dev/null", "-o", "/dev/null");
        assertThat(out).contains("< HTTP/1.1 200 OK").contains("Re-using existing connection");
        assertThat(origin.counters().count(HttpCounters.Event.CONNECTION_ACCEPTED))
                .isEqualTo(1);
        assertThat(origin.counters().count(HttpCounters.Event.HTTP1_CONNECTION)).isEqualTo(1);
        assertThat(origin.counters().requests("part", 200)).isEqualTo(1);
    }

    @Test
    void curlSpeaksH2OverTlsByAlpnAndHttp11WhenAsked() throws Exception {
        assertThat(curl("-k", "--http2", "-w", "%{http_version}", origin.https("/hello")))
                .isEqualTo("hello h2 tls\n2");
        assertThat(curl("-k", "--http1.1", "-w", "%{http_version}", origin.https("/hello")))
                .isEqualTo("hello h1 tls\n1.1");
        assertThat(origin.counters().count(HttpCounters.Event.HTTP2_TLS_CONNECTION))
                .isEqualTo(1);
    }

    @Test
    void curlSpeaksH2cByPriorKnowledgeAndByUpgrade() throws Exception {
        assertThat(curl("--http2-prior-knowledge", "-w", "%{http_version}", origin.http("/hello")))
                .isEqualTo("hello h2\n2");
        assertThat(origin.counters().count(HttpCounters.Event.H2C_PRIOR_KNOWLEDGE))
                .isEqualTo(1);
        String upgraded = curl("-v", "--http2", "-w", "%{http_version}", origin.http("/hello"));
        assertThat(upgraded).contains("< HTTP/1.1 101 Switching Protocols").endsWith("hello h2\n2");
        assertThat(origin.counters().count(HttpCounters.Event.H2C_UPGRADE)).isEqualTo(1);
    }

    @Test
    void curlGetsTheSharedBytesIntactOverEveryProtocol() throws Exception {
        byte[] expected = new byte[TestOrigin.PART_BYTES];
        origin.part.content().getBytes(0, expected);
        java.nio.file.Path file = java.nio.file.Files.createTempFile("tern-part", ".m4s");
        try {
            for (String[] args : List.of(
                    new String[] {origin.http("/part")},
                    new String[] {"--http2-prior-knowledge", origin.http("/part")},
                    new String[] {"-k", "--http2", origin.https("/part")})) {
                List<String> command = new ArrayList<>(List.of(args));
                command.addAll(List.of("-o", file.toString()));
                curl(command.toArray(new String[0]));
                assertThat(java.nio.file.Files.readAllBytes(file)).isEqualTo(expected);
            }
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void h2loadRuns50StreamsAtOnceOnOneH2cConnection() throws Exception {
        // Each request is held until 50 are held at once: the run completes only if all 50 streams
        // are open together on the one connection.
        String out = Peers.run(
                60,
                Peers.require("h2load", "nghttp2-client").toString(),
                "-n",
                "100",
                "-c",
                "1",
                "-m",
                "50",
                origin.http("/barrier?n=50"));
        assertThat(out).contains("100 succeeded").contains("status codes: 100 2xx");
        assertThat(origin.counters().count(HttpCounters.Event.CONNECTION_ACCEPTED))
                .isEqualTo(1);
        assertThat(origin.counters().requests("part", 200)).isEqualTo(100);
    }

    @Test
    void nghttpRuns20ParallelStreamsOverTls() throws Exception {
        String out = Peers.run(
                60,
                Peers.require("nghttp", "nghttp2-client").toString(),
                "-n",
                "-s",
                "-m",
                "20",
                origin.https("/barrier?n=20"));
        assertThat(out).contains("Request timing");
        assertThat(out.lines().filter(line -> line.contains("/barrier?n=20")).count())
                .isEqualTo(20);
        assertThat(origin.counters().count(HttpCounters.Event.HTTP2_TLS_CONNECTION))
                .isEqualTo(1);
        assertThat(origin.counters().requests("part", 200)).isEqualTo(20);
    }

    @Test
    void javaHttpClientSends100ParallelRequestsOnOneH2Connection() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(TestTls.trustAll())
                .build();
        // A first request opens the connection; the rest share it.
        HttpResponse<byte[]> first = client.send(
                HttpRequest.newBuilder(URI.create(origin.https("/part"))).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(first.version()).isEqualTo(HttpClient.Version.HTTP_2);
        List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            responses.add(client.sendAsync(
                    HttpRequest.newBuilder(URI.create(origin.https("/barrier?n=100")))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (CompletableFuture<HttpResponse<byte[]>> response : responses) {
            HttpResponse<byte[]> r = response.get(30, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(r.body()).hasSize(TestOrigin.PART_BYTES);
        }
        assertThat(origin.counters().count(HttpCounters.Event.CONNECTION_ACCEPTED))
                .isEqualTo(1);
        client.close();
    }

    @Test
    void aSharedBodyAnsweredFromAnotherThreadSurvivesItsCreatorReleasingItFirst() throws Exception {
        // The origin's stream loop answers held reloads on viewers' loops and may replace (and
        // release) that playlist version before those loops run: the answer must still be whole.
        try (HttpClient client = HttpClient.newHttpClient()) {
            CompletableFuture<HttpResponse<String>> response = client.sendAsync(
                    HttpRequest.newBuilder(URI.create(origin.http("/hold"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            HttpExchange exchange = origin.held.poll(10, TimeUnit.SECONDS);
            assertThat(exchange).isNotNull();
            CountDownLatch loopBlocked = new CountDownLatch(1);
            CountDownLatch creatorReleased = new CountDownLatch(1);
            exchange.eventLoop().execute(() -> {
                loopBlocked.countDown();
                awaitQuietly(creatorReleased);
            });
            assertThat(loopBlocked.await(10, TimeUnit.SECONDS)).isTrue();
            SharedBody version = SharedBody.utf8("#EXTM3U\n#EXT-X-VERSION:9\n", "application/vnd.apple.mpegurl");
            exchange.respond(version, CacheControl.maxAge(1));
            version.release();
            creatorReleased.countDown();
            HttpResponse<String> answer = response.get(10, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("#EXTM3U\n#EXT-X-VERSION:9\n");
            // The client can read the answer before the loop's hand-off lets go of its reference.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (version.refCnt() != 0 && System.nanoTime() < deadline) {
                exchange.eventLoop().submit(() -> {}).await(1, TimeUnit.SECONDS);
            }
            assertThat(version.refCnt()).as("freed once the response let go").isZero();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
    void curlReadsAStreamedBodyWhileItIsWritten(String protocol) throws Exception {
        Process curl =
                Peers.start(Peers.require("curl", "curl").toString(), "-sS", "-N", protocol, origin.http("/stream"));
        try {
            BodyStream stream = origin.streams.poll(10, TimeUnit.SECONDS);
            assertThat(stream).isNotNull();
            InputStream out = curl.getInputStream();
            for (int i = 1; i <= 3; i++) {
                String chunk = "chunk-" + i + ";";
                stream.write(Unpooled.copiedBuffer(chunk, StandardCharsets.US_ASCII));
                // curl prints each chunk before the next one exists: the body streams.
                assertThat(Peers.readUntil(out, chunk, 10_000)).isEqualTo(chunk);
            }
            stream.end();
            assertThat(curl.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(curl.exitValue()).isZero();
        } finally {
            curl.destroyForcibly();
        }
        assertThat(origin.counters().count(HttpCounters.Event.STREAMED_RESPONSE))
                .isEqualTo(1);
    }

    @Test
    void theJdkWebSocketClientTalksThroughTheUpgradeSeam() throws Exception {
        List<String> received = new ArrayList<>();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        WebSocket.Listener listener = new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    synchronized (received) {
                        received.add(text.toString());
                        received.notifyAll();
                    }
                    text.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                closed.complete(null);
                return null;
            }
        };
        try (HttpClient client = HttpClient.newHttpClient()) {
            WebSocket socket = client.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create("ws://127.0.0.1:" + origin.server.port() + "/ws"), listener)
                    .get(10, TimeUnit.SECONDS);
            socket.sendText("hello tern", true).get(10, TimeUnit.SECONDS);
            socket.sendText("x".repeat(300), true).get(10, TimeUnit.SECONDS);
            synchronized (received) {
                long deadline = System.currentTimeMillis() + 10_000;
                while (received.size() < 2 && System.currentTimeMillis() < deadline) {
                    received.wait(1000);
                }
            }
            assertThat(received).containsExactly("hello tern", "x".repeat(300));
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(10, TimeUnit.SECONDS);
            closed.get(10, TimeUnit.SECONDS);
        }
        assertThat(origin.counters().count(HttpCounters.Event.PROTOCOL_UPGRADE)).isEqualTo(1);
    }
}
