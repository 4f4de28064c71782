package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.testkit.TestTls;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Held requests and limits, with real clients on real sockets. */
class HeldRequestsAndLimitsTest {
    private TestOrigin origin;

    private TestOrigin start(HttpLimits limits) throws Exception {
        origin = new TestOrigin(limits);
        return origin;
    }

    @AfterEach
    void stop() throws Exception {
        if (origin != null) {
            origin.close();
        }
    }

    private static String curlPath() {
        return Peers.require("curl", "curl").toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
    void aHeldRequestIsAnsweredWhenReleased(String protocol) throws Exception {
        start(HttpLimits.DEFAULTS);
        Process curl = Peers.start(curlPath(), "-sS", protocol, "-w", " %{http_code}", origin.http("/hold"));
        try {
            HttpExchange exchange = origin.held.poll(10, TimeUnit.SECONDS);
            assertThat(exchange).isNotNull();
            assertThat(origin.counters().heldNow()).isEqualTo(1);
            exchange.reply(HttpResponseStatus.OK).cache(CacheControl.maxAge(6)).send("released");
            assertThat(curl.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("released 200");
        } finally {
            curl.destroyForcibly();
        }
        assertThat(origin.counters().heldNow()).isZero();
        assertThat(origin.counters().count(HttpCounters.Event.HELD_RELEASED)).isEqualTo(1);
    }

    @Test
    void aHeldRequestTimesOutWith503() throws Exception {
        start(HttpLimits.DEFAULTS);
        String out =
                Peers.run(30, curlPath(), "-sS", "-o", "/dev/null", "-w", "%{http_code}", origin.http("/hold-short"));
        assertThat(out).isEqualTo("503");
        assertThat(origin.counters().count(HttpCounters.Event.HELD_TIMED_OUT)).isEqualTo(1);
        assertThat(origin.counters().requests("playlist", 503)).isEqualTo(1);
        assertThat(origin.counters().heldNow()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--http1.1", "--http2-prior-knowledge"})
    void aClientThatDisconnectsCancelsItsHeldRequest(String protocol) throws Exception {
        start(HttpLimits.DEFAULTS);
        Process curl = Peers.start(curlPath(), "-sS", protocol, origin.http("/hold"));
        try {
            assertThat(origin.held.poll(10, TimeUnit.SECONDS)).isNotNull();
        } finally {
            curl.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(origin.cancelled.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(origin.counters().count(HttpCounters.Event.HELD_CANCELLED)).isEqualTo(1);
        assertThat(origin.counters().heldNow()).isZero();
    }

    @Test
    void anH2StreamResetCancelsItsHeldRequestAndKeepsTheConnection() throws Exception {
        start(HttpLimits.DEFAULTS);
        try (HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(TestTls.trustAll())
                .build()) {
            HttpResponse<String> warm = client.send(
                    HttpRequest.newBuilder(URI.create(origin.https("/hello"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(warm.body()).isEqualTo("hello h2 tls\n");
            CompletableFuture<HttpResponse<String>> held = client.sendAsync(
                    HttpRequest.newBuilder(URI.create(origin.https("/hold"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(origin.held.poll(10, TimeUnit.SECONDS)).isNotNull();
            held.cancel(true); // the JDK client resets the stream
            assertThat(origin.cancelled.await(10, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> after = client.send(
                    HttpRequest.newBuilder(URI.create(origin.https("/hello"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(after.body()).isEqualTo("hello h2 tls\n");
        }
        assertThat(origin.counters().count(HttpCounters.Event.CONNECTION_ACCEPTED))
                .isEqualTo(1);
        assertThat(origin.counters().count(HttpCounters.Event.HELD_CANCELLED)).isEqualTo(1);
    }

    @Test
    void heldRequestsOverTheClientsShareGet429() throws Exception {
        start(HttpLimits.DEFAULTS.toBuilder().heldRequests(100, 2).build());
        try (HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(TestTls.trustAll())
                .build()) {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                responses.add(client.sendAsync(
                        HttpRequest.newBuilder(URI.create(origin.https("/hold")))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
                assertThat(origin.held.poll(10, TimeUnit.SECONDS)).isNotNull();
            }
            HttpResponse<String> refused = client.send(
                    HttpRequest.newBuilder(URI.create(origin.https("/hold"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("retry-after")).hasValue("1");
            assertThat(origin.counters().count(HttpCounters.Event.HELD_REJECTED_PER_IP))
                    .isEqualTo(1);
            responses.forEach(r -> r.cancel(true));
        }
    }

    @Test
    void connectionsOverThePerIpLimitAreClosed() throws Exception {
        start(HttpLimits.DEFAULTS.toBuilder().connections(100, 2).build());
        try (Socket a = socket();
                Socket b = socket();
                Socket c = socket()) {
            assertThat(exchange(a)).startsWith("HTTP/1.1 200 OK");
            assertThat(exchange(b)).startsWith("HTTP/1.1 200 OK");
            c.setSoTimeout(10_000);
            c.getOutputStream().write(request());
            assertThat(c.getInputStream().read()).as("closed without an answer").isEqualTo(-1);
        }
        assertThat(origin.counters().count(HttpCounters.Event.CONNECTION_REJECTED_PER_IP))
                .isEqualTo(1);
    }

    @Test
    void aSlowLorisGets408AndIsClosed() throws Exception {
        start(HttpLimits.DEFAULTS.toBuilder().timeouts(60_000, 400, 30_000).build());
        try (Socket socket = socket()) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout");
        }
        assertThat(origin.counters().count(HttpCounters.Event.CLOSED_SLOW_REQUEST))
                .isEqualTo(1);
    }

    @Test
    void oversizedUrisAndHeadersGet414And431FromCurl() throws Exception {
        start(HttpLimits.DEFAULTS.toBuilder().requestSizes(256, 1024, 1024).build());
        String longUri = origin.http("/hello?" + "q".repeat(400));
        String h2 = "--http2-prior-knowledge";
        assertThat(status(longUri)).isEqualTo("414");
        assertThat(status(h2, longUri)).isEqualTo("414");
        String bigHeader = "X-Big: " + "h".repeat(2000);
        assertThat(status("-H", bigHeader, origin.http("/hello"))).isEqualTo("431");
        // HTTP/2: a header list a little over the advertised limit is a stream error (431); one far
        // over it (Netty's go-away bound, 1.25 times the limit) ends the connection.
        assertThat(status(h2, "-H", "X-Big: " + "h".repeat(1000), origin.http("/hello")))
                .isEqualTo("431");
        assertThat(status(h2, "-H", bigHeader, origin.http("/hello")))
                .startsWith("curl: (16)")
                .endsWith("000");
        assertThat(Peers.run(30, curlPath(), "-sS", "-w", "%{http_code}", h2, origin.http("/hello")))
                .as("the server still serves")
                .isEqualTo("hello h2\n200");
    }

    /** curl's status code for a request (000 when it got no answer, after its error line). */
    private static String status(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(curlPath(), "-sS", "-o", "/dev/null", "-w", "%{http_code}"));
        command.addAll(List.of(args));
        return Peers.run(30, command.toArray(new String[0])).trim();
    }

    private static byte[] request() {
        return "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    }

    private Socket socket() throws Exception {
        return new Socket(InetAddress.getLoopbackAddress(), origin.server.port());
    }

    /** One request and the start of its answer on a raw keep-alive connection. */
    private static String exchange(Socket socket) throws Exception {
        socket.setSoTimeout(10_000);
        socket.getOutputStream().write(request());
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[256];
        int n = in.read(buffer);
        return new String(buffer, 0, Math.max(n, 0), StandardCharsets.US_ASCII);
    }
}
