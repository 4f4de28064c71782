package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.http.CorsPolicy;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.server.origin.api.ApiAccess;
import io.tern.server.origin.api.ApiRoutes;
import io.tern.server.origin.api.RelaySummary;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Json;
import io.tern.testkit.Await;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON API with the JDK's HTTP client against a real origin that ffmpeg publishes to (and
 * records): every route and every error, each answer checked against the OpenAPI document the
 * origin serves, access from loopback, through a proxy and with a token, CORS preflight, and the
 * kick: DELETE disconnects ffmpeg and the stream leaves the list.
 */
class OriginApiTest {
    private static final String TOKEN = "s3cret-token-for-the-api-0123456789";

    @Test
    @SuppressWarnings("unchecked")
    void everyRouteAnswersAsDocumentedAndTheKickDisconnectsThePublisher() throws Exception {
        FfmpegPublisher.require();
        Path records = Files.createTempDirectory("tern-api-records");
        try (OriginFixture origin = new OriginFixture("record-dir=" + records);
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0)) {
            OpenApiCheck openApi = openApi(origin);
            assertThat(openApi.operations())
                    .as("the document names every route")
                    .isEqualTo(OpenApiCheck.served());
            String instance = origin.awaitStream("cam1", 20_000);
            // A viewer: one media playlist request counts it for the next seconds.
            assertThat(origin.get("/live/cam1/" + instance + "/video.m3u8").statusCode())
                    .isEqualTo(200);
            Map<String, Object> stream = awaitListed(origin, openApi);

            assertThat(stream.get("protocol")).isEqualTo("rtmp");
            assertThat((String) stream.get("publisher")).startsWith("127.0.0.1:");
            assertThat(stream.get("instanceId")).isEqualTo(instance);
            assertThat(stream.get("watchPath")).isEqualTo("/live/cam1/");
            assertThat(Json.at(stream, "video", "width")).isEqualTo(1280.0);
            assertThat(Json.at(stream, "video", "height")).isEqualTo(720.0);
            assertThat((Double) Json.at(stream, "video", "frameRate")).isBetween(29.9, 30.1);
            assertThat(Json.at(stream, "audio", "sampleRateHz")).isEqualTo(48000.0);
            assertThat((Double) stream.get("ingestBitsPerSecond")).isGreaterThan(500_000.0);
            assertThat((Double) stream.get("parts")).isPositive();
            assertThat((Double) stream.get("viewers")).isEqualTo(1.0);
            assertThat(Json.at(stream, "recording", "bytesWritten")).isNotNull();

            Map<String, Object> one = json(call(origin, openApi, "GET", "/api/v1/streams/{name}", "cam1", null, 200));
            assertThat(one.get("name")).isEqualTo("cam1");
            assertThat(one.get("lastErrors")).isInstanceOf(List.class);
            assertThat(one).containsKeys("discontinuities", "timestampJumps", "droppedFrames", "heldRequests");
            Map<String, Object> missing =
                    json(call(origin, openApi, "GET", "/api/v1/streams/{name}", "nope", null, 404));
            assertThat(Json.at(missing, "error", "message")).isEqualTo("no stream live/nope");

            Map<String, Object> recordings = json(call(origin, openApi, "GET", "/api/v1/recordings", null, null, 200));
            assertThat(recordings.get("enabled")).isEqualTo(true);
            List<Object> files = (List<Object>) recordings.get("recordings");
            assertThat(files).as("recordings: %s", recordings).isNotEmpty();
            Map<String, Object> file = (Map<String, Object>) files.get(0);
            assertThat(file.get("stream")).isEqualTo("cam1");
            assertThat(file.get("writing")).isEqualTo(true);
            assertThat((Double) file.get("sizeBytes")).isPositive();
            assertThat((String) file.get("end")).isGreaterThanOrEqualTo((String) file.get("start"));

            Map<String, Object> turn = json(call(origin, openApi, "GET", "/api/v1/turn", null, null, 404));
            assertThat((String) Json.at(turn, "error", "message")).contains("no TURN relay runs in this process");
            Map<String, Object> swarm = json(call(origin, openApi, "GET", "/api/v1/swarm/{name}", "cam1", null, 404));
            assertThat((String) Json.at(swarm, "error", "message")).contains("the swarm is off on this origin");

            // Errors are JSON too: an unknown route, a wrong method, a wrong token, a proxied client.
            HttpResponse<String> unknown = send(origin, "GET", "/api/v1/nothing", null);
            assertThat(unknown.statusCode()).isEqualTo(404);
            assertThat(Json.at(Json.parse(unknown.body()), "error", "status")).isEqualTo(404.0);
            HttpResponse<String> wrongMethod = send(origin, "POST", "/api/v1/streams", null);
            assertThat(wrongMethod.statusCode()).isEqualTo(405);
            assertThat(wrongMethod.headers().firstValue("allow")).hasValue("GET, HEAD, OPTIONS");
            assertThat(Json.at(Json.parse(wrongMethod.body()), "error", "status"))
                    .isEqualTo(405.0);
            HttpResponse<String> badToken =
                    call(origin, openApi, "GET", "/api/v1/streams", null, "wrong-token-0123456789", 401);
            assertThat(badToken.headers().firstValue("www-authenticate")).hasValue("Bearer realm=\"tern\"");
            HttpResponse<String> proxied = sendVia(origin, "/api/v1/streams", "203.0.113.9", null);
            assertThat(proxied.statusCode()).as(proxied.body()).isEqualTo(403);
            openApi.check("GET", "/api/v1/streams", proxied.statusCode(), proxied.body());
            assertThat((String) Json.at(Json.parse(proxied.body()), "error", "message"))
                    .contains("--api-token");

            // CORS: a page elsewhere may script the API (with a token), preflight included.
            HttpResponse<String> preflight = origin.http.send(
                    HttpRequest.newBuilder(URI.create(origin.url("/api/v1/streams/cam1")))
                            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                            .header("Origin", "https://ops.example")
                            .header("Access-Control-Request-Method", "DELETE")
                            .header("Access-Control-Request-Headers", "authorization")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(preflight.statusCode()).isEqualTo(204);
            assertThat(preflight
                            .headers()
                            .firstValue("access-control-allow-methods")
                            .orElse(""))
                    .contains("DELETE")
                    .contains("GET");
            assertThat(preflight
                            .headers()
                            .firstValue("access-control-allow-headers")
                            .orElse(""))
                    .contains("Authorization");
            assertThat(preflight.headers().firstValue("access-control-allow-origin"))
                    .hasValue("*");

            // The kick: the publisher is disconnected, and the stream leaves the list.
            Map<String, Object> kicked =
                    json(call(origin, openApi, "DELETE", "/api/v1/streams/{name}", "cam1", null, 202));
            assertThat(kicked.get("disconnected")).isEqualTo(true);
            assertThat(kicked.get("instanceId")).isEqualTo(instance);
            assertThat(ffmpeg.awaitExit(15_000))
                    .as("ffmpeg was disconnected and exited: %s", ffmpeg.log())
                    .isNotEqualTo(-1);
            awaitUnlisted(origin);
            Map<String, Object> ended = json(call(origin, openApi, "GET", "/api/v1/streams/{name}", "cam1", null, 200));
            assertThat(ended.get("live"))
                    .as("the ended stream lingers, not live")
                    .isEqualTo(false);
            call(origin, openApi, "DELETE", "/api/v1/streams/{name}", "cam1", null, 404);

            // The relay seam: with a relay in the process, /turn answers from it.
            RelaySummary relay = new RelaySummary(Map.of("udp", 3L, "tcp", 1L, "tls", 0L), 123_456);
            HttpRoutes.Builder routes = HttpRoutes.builder().cors(CorsPolicy.anyOrigin());
            ApiRoutes relayRoutes =
                    new ApiRoutes(origin.server.registry(), null, ApiAccess.from(origin.server.config()), () -> relay);
            relayRoutes.addTo(routes);
            HttpServer withRelay = HttpServer.builder(new HttpService(routes.build(), HttpLimits.DEFAULTS))
                    .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .start();
            try {
                HttpResponse<String> answer = origin.http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withRelay.port() + "/api/v1/turn"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).isEqualTo(200);
                openApi.check("GET", "/api/v1/turn", 200, answer.body());
                Map<String, Object> summary = json(answer);
                assertThat(Json.at(summary, "allocations", "udp")).isEqualTo(3.0);
                assertThat(summary.get("relayedBitsPerSecond")).isEqualTo(123_456.0);
            } finally {
                withRelay.close();
                relayRoutes.release(); // its OpenAPI body, which paranoid leak detection reports otherwise
            }
            assertThat(openApi.exercised())
                    .as("every documented route was called")
                    .isEqualTo(openApi.operations());
        } finally {
            io.tern.server.origin.harness.Harness.deleteTree(records);
        }
    }

    @Test
    void withATokenTheApiAnswersProxiedClientsThatSendIt() throws Exception {
        try (OriginFixture origin = new OriginFixture("api-token=" + TOKEN)) {
            assertThat(sendVia(origin, "/api/v1/streams", "203.0.113.9", null).statusCode())
                    .isEqualTo(401);
            assertThat(sendVia(origin, "/api/v1/streams", "203.0.113.9", "not-" + TOKEN)
                            .statusCode())
                    .isEqualTo(401);
            HttpResponse<String> ok = sendVia(origin, "/api/v1/streams", "203.0.113.9", TOKEN);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("{\"streams\":[]}\n");
            assertThat(send(origin, "GET", "/api/v1/streams", null).statusCode())
                    .as("loopback needs no token")
                    .isEqualTo(200);
            assertThat(send(origin, "GET", "/api/v1/openapi.json", null).statusCode())
                    .isEqualTo(200);
        }
    }

    private static OpenApiCheck openApi(OriginFixture origin) throws Exception {
        HttpResponse<String> doc = origin.get("/api/v1/openapi.json");
        assertThat(doc.statusCode()).isEqualTo(200);
        assertThat(doc.headers().firstValue("content-type")).hasValue("application/json; charset=utf-8");
        OpenApiCheck check = new OpenApiCheck(doc.body());
        check.check("GET", "/api/v1/openapi.json", 200, doc.body());
        return check;
    }

    /** Polls (bounded) until the list shows cam1 with its codecs; returns its entry. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> awaitListed(OriginFixture origin, OpenApiCheck openApi) throws Exception {
        String[] last = {""};
        return Await.awaitValue(
                "cam1 listed with its codecs",
                Duration.ofSeconds(20),
                Duration.ofMillis(200),
                () -> {
                    last[0] = call(origin, openApi, "GET", "/api/v1/streams", null, null, 200)
                            .body();
                    Object first = Json.at(Json.parse(last[0]), "streams", 0);
                    return first instanceof Map<?, ?> s && s.get("video") != null && s.get("audio") != null
                            ? (Map<String, Object>) s
                            : null;
                },
                () -> last[0]);
    }

    private static void awaitUnlisted(OriginFixture origin) throws Exception {
        String[] last = {""};
        Await.await(
                "the kicked stream unlisted",
                Duration.ofSeconds(10),
                Duration.ofMillis(100),
                () -> (last[0] = send(origin, "GET", "/api/v1/streams", null).body()).equals("{\"streams\":[]}\n"),
                () -> last[0]);
    }

    /** Calls {@code template} (with {@code name} for its parameter), checks the status and the answer against the document. */
    private static HttpResponse<String> call(
            OriginFixture origin,
            OpenApiCheck openApi,
            String method,
            String template,
            String name,
            String token,
            int status)
            throws Exception {
        HttpResponse<String> r =
                send(origin, method, name == null ? template : template.replace("{name}", name), token);
        assertThat(r.statusCode()).as("%s %s: %s", method, r.uri(), r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json; charset=utf-8");
        assertThat(r.headers().firstValue("cache-control")).hasValue("no-store");
        openApi.check(method, template, status, r.body());
        return r;
    }

    private static HttpResponse<String> send(OriginFixture origin, String method, String path, String token)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin.url(path)))
                .timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return origin.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** As a reverse proxy on this host would ask, for client {@code client}. */
    private static HttpResponse<String> sendVia(OriginFixture origin, String path, String client, String token)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin.url(path)))
                .timeout(Duration.ofSeconds(20))
                .header("X-Forwarded-For", client);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return origin.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> response) {
        return (Map<String, Object>) Json.parse(response.body());
    }
}
