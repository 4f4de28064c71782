package io.tern.server.origin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The on-publish hook against a real HTTP server (Tern's own, on loopback). */
class PublishHookTest {
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        HttpRoutes routes = HttpRoutes.builder()
                .route(Set.of(HttpMethod.POST), "/hook/{answer}", "hook", ex -> {
                    received.add(ex.header("Content-Type") + " " + ex.body().toString(StandardCharsets.UTF_8));
                    switch (ex.pathParam("answer")) {
                        case "allow" -> ex.respond(HttpResponseStatus.NO_CONTENT);
                        case "deny" -> ex.respond(HttpResponseStatus.FORBIDDEN);
                        default -> ex.defer(30, TimeUnit.SECONDS, null); // never answers in time
                    }
                })
                .build();
        server = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private PublishHook hook(String answer, long timeoutMs) {
        return new PublishHook(
                URI.create("http://127.0.0.1:" + server.port() + "/hook/" + answer), Duration.ofMillis(timeoutMs));
    }

    private static PublishRequest request() {
        return new PublishRequest(
                "rtmp", "live", "cam \"1\"", new InetSocketAddress("203.0.113.7", 50122), "token=abc&x=1");
    }

    @Test
    void a2xxAnswerAllowsAndTheHookGetsTheRequestAsJson() throws Exception {
        PublishDecision decision = hook("allow", 5000).ask(request()).get(10, TimeUnit.SECONDS);
        assertThat(decision.allowed()).isTrue();
        assertThat(received.poll(5, TimeUnit.SECONDS))
                .isEqualTo("application/json {\"protocol\":\"rtmp\",\"app\":\"live\",\"name\":\"cam \\\"1\\\"\","
                        + "\"remoteAddress\":\"203.0.113.7\",\"remotePort\":50122,\"query\":\"token=abc&x=1\"}");
    }

    @Test
    void anyOtherStatusRefuses() throws Exception {
        PublishDecision decision = hook("deny", 5000).ask(request()).get(10, TimeUnit.SECONDS);
        assertThat(decision).isEqualTo(PublishDecision.refuse("on-publish hook answered 403"));
    }

    @Test
    void noAnswerWithinTheTimeoutRefuses() throws Exception {
        PublishDecision decision = hook("hold", 300).ask(request()).get(10, TimeUnit.SECONDS);
        assertThat(decision).isEqualTo(PublishDecision.refuse("on-publish hook failed: no answer within 300 ms"));
        assertThat(received.poll(5, TimeUnit.SECONDS)).as("the hook was asked").isNotNull();
    }

    @Test
    void anUnreachableHookRefuses() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        PublishHook unreachable =
                new PublishHook(URI.create("http://127.0.0.1:" + closedPort + "/"), Duration.ofSeconds(5));
        PublishDecision decision = unreachable.ask(request()).get(10, TimeUnit.SECONDS);
        assertThat(decision.allowed()).isFalse();
        assertThat(decision.reason()).startsWith("on-publish hook failed: ConnectException");
    }

    @Test
    void theAuthorizerChecksTheTokenBeforeAskingTheHook() throws Exception {
        PublishTokens tokens = new PublishTokens("k", InstantSource.fixed(Instant.ofEpochSecond(1000)));
        PublishAuthorizer authorizer = new PublishAuthorizer(tokens, hook("allow", 5000));
        PublishRequest noToken = new PublishRequest("srt", "live", "cam1", new InetSocketAddress("127.0.0.1", 1), "");
        assertThat(authorizer.authorize(noToken).get(10, TimeUnit.SECONDS).allowed())
                .isFalse();
        assertThat(received).as("a refused token never reaches the hook").isEmpty();
        PublishRequest withToken = new PublishRequest(
                "srt",
                "live",
                "cam1",
                new InetSocketAddress("127.0.0.1", 1),
                "token=" + tokens.mint("live", "cam1", 2000));
        assertThat(authorizer.authorize(withToken).get(10, TimeUnit.SECONDS).allowed())
                .isTrue();
        assertThat(received.poll(5, TimeUnit.SECONDS)).contains("\"protocol\":\"srt\"");
        PublishAuthorizer hookOnly = new PublishAuthorizer(null, hook("deny", 5000));
        assertThat(hookOnly.authorize(noToken).get(10, TimeUnit.SECONDS).reason())
                .isEqualTo("on-publish hook answered 403");
        assertThat(new PublishAuthorizer(null, null).authorize(noToken).get().allowed())
                .isTrue();
    }

    @Test
    void onlyHttpUrlsAndPositiveTimeoutsAreAccepted() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new PublishHook(URI.create("ftp://x/"), Duration.ofSeconds(1)))
                .hasMessageContaining("--on-publish");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new PublishHook(URI.create("http://x/"), Duration.ZERO))
                .hasMessageContaining("timeout");
    }
}
