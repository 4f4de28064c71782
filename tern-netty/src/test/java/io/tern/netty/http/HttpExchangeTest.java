package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's HTTP/1.1 behaviour on an embedded channel, with simulated time. */
class HttpExchangeTest {
    private static final String PLAYLIST = "#EXTM3U\n#EXT-X-VERSION:9\n" + "#EXTINF:2.0,\nsegment.m4s\n".repeat(40);
    private final List<HttpExchange> held = new ArrayList<>();
    private final AtomicInteger cancelled = new AtomicInteger();
    private SharedBody playlist;
    private SharedBody part;
    private EmbeddedHttp http;

    private HttpRoutes routes() {
        playlist = SharedBody.utf8(PLAYLIST, "application/vnd.apple.mpegurl");
        part = SharedBody.of(new byte[4096], "video/mp4");
        return HttpRoutes.builder()
                .get("/live/{stream}/index.m3u8", "playlist", ex -> ex.respond(playlist, CacheControl.maxAge(1)))
                .get("/live/{stream}/part.m4s", "part", ex -> ex.respond(part, CacheControl.immutable()))
                .get(
                        "/echo/{name}",
                        "api",
                        ex -> ex.reply(HttpResponseStatus.OK)
                                .contentType("text/plain")
                                .send(ex.pathParam("name") + "?" + ex.query("q")))
                .route(
                        Set.of(HttpMethod.POST),
                        "/api/items",
                        "api",
                        ex -> ex.reply(HttpResponseStatus.CREATED)
                                .send(ex.body().toString(StandardCharsets.UTF_8)))
                .get("/hold", "playlist", ex -> {
                    if (ex.defer(3, TimeUnit.SECONDS, null)) {
                        held.add(ex);
                        ex.onCancel(cancelled::incrementAndGet);
                    }
                })
                .get(
                        "/hold-custom",
                        "playlist",
                        ex -> ex.defer(
                                1,
                                TimeUnit.SECONDS,
                                timedOut -> timedOut.reply(HttpResponseStatus.OK)
                                        .send("timed out, here is the old playlist")))
                .get("/throws", "api", ex -> {
                    throw new IllegalStateException("boom");
                })
                .get("/silent", "api", ex -> {})
                .cors(CorsPolicy.anyOrigin())
                .build();
    }

    private EmbeddedHttp start(HttpLimits limits) {
        http = new EmbeddedHttp(routes(), limits);
        return http;
    }

    @AfterEach
    void close() {
        if (http != null) {
            http.close();
        }
        if (playlist != null) {
            playlist.release();
            part.release();
        }
    }

    @Test
    void routesCapturesAndQueryReachTheHandler() {
        start(HttpLimits.DEFAULTS).get("/echo/cam%201?q=a+b");
        FullHttpResponse response = http.response();
        assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(response.content().toString(StandardCharsets.UTF_8)).isEqualTo("cam 1?a b");
        response.release();
        assertThat(http.service.counters().requests("api", 200)).isEqualTo(1);
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() {
        start(HttpLimits.DEFAULTS);
        for (int i = 0; i < 3; i++) {
            http.get("/live/a/part.m4s");
            FullHttpResponse response = http.response();
            assertThat(response.status().code()).isEqualTo(200);
            assertThat(response.headers().contains(HttpHeaderNames.CONNECTION)).isFalse();
            response.release();
        }
        assertThat(http.server.isActive()).isTrue();
        http.get("/live/a/part.m4s", "Connection: close");
        FullHttpResponse last = http.response();
        assertThat(last.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        last.release();
        assertThat(http.server.isActive()).isFalse();
    }

    @Test
    void immutableObjectsCarryCacheControlEtagAndAnswerConditionalRequestsWith304() {
        start(HttpLimits.DEFAULTS).get("/live/a/part.m4s");
        FullHttpResponse first = http.response();
        assertThat(first.headers().get(HttpHeaderNames.CACHE_CONTROL)).isEqualTo("public, max-age=31536000, immutable");
        assertThat(first.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("4096");
        assertThat(first.headers().get(HttpHeaderNames.DATE)).isNotBlank();
        String etag = first.headers().get(HttpHeaderNames.ETAG);
        assertThat(etag).startsWith("\"").endsWith("\"");
        first.release();

        http.get("/live/a/part.m4s", "If-None-Match: W/" + etag);
        FullHttpResponse revalidated = http.response();
        assertThat(revalidated.status()).isEqualTo(HttpResponseStatus.NOT_MODIFIED);
        assertThat(revalidated.content().readableBytes()).isZero();
        assertThat(revalidated.headers().get(HttpHeaderNames.ETAG)).isEqualTo(etag);
        revalidated.release();
        assertThat(http.service.counters().count(HttpCounters.Event.NOT_MODIFIED))
                .isEqualTo(1);
    }

    @Test
    void lastModifiedAnswersIfModifiedSince() {
        long madeMs = Instant.parse("2026-11-30T12:00:00Z").toEpochMilli();
        SharedBody init = SharedBody.of(new byte[100], 0, 100, "video/mp4", madeMs);
        HttpRoutes routes = HttpRoutes.builder()
                .get("/init.mp4", "init", ex -> ex.respond(init, CacheControl.immutable()))
                .build();
        try (EmbeddedHttp server = new EmbeddedHttp(new HttpService(
                routes, HttpLimits.DEFAULTS, InstantSource.fixed(Instant.parse("2026-11-30T13:00:00Z"))))) {
            server.get("/init.mp4");
            FullHttpResponse first = server.response();
            assertThat(first.headers().get(HttpHeaderNames.LAST_MODIFIED)).isEqualTo("Mon, 30 Nov 2026 12:00:00 GMT");
            assertThat(first.headers().get(HttpHeaderNames.DATE)).isEqualTo("Mon, 30 Nov 2026 13:00:00 GMT");
            first.release();
            server.get("/init.mp4", "If-Modified-Since: Mon, 30 Nov 2026 12:00:00 GMT");
            FullHttpResponse unchanged = server.response();
            assertThat(unchanged.status()).isEqualTo(HttpResponseStatus.NOT_MODIFIED);
            unchanged.release();
            server.get("/init.mp4", "If-Modified-Since: Mon, 30 Nov 2026 11:59:59 GMT");
            FullHttpResponse changed = server.response();
            assertThat(changed.status()).isEqualTo(HttpResponseStatus.OK);
            changed.release();
        } finally {
            init.release();
        }
    }

    @Test
    void playlistsAreGzippedOnlyForClientsThatAcceptIt() throws IOException {
        start(HttpLimits.DEFAULTS).get("/live/a/index.m3u8", "Accept-Encoding: br, gzip;q=0.8");
        FullHttpResponse gzipped = http.response();
        assertThat(gzipped.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("gzip");
        assertThat(gzipped.headers().get(HttpHeaderNames.VARY)).isEqualTo("accept-encoding");
        assertThat(gzipped.content().readableBytes()).isLessThan(PLAYLIST.length() / 4);
        try (GZIPInputStream in = new GZIPInputStream(new ByteBufInputStream(gzipped.content()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(PLAYLIST);
        }
        String gzipEtag = gzipped.headers().get(HttpHeaderNames.ETAG);
        gzipped.release();

        http.get("/live/a/index.m3u8", "Accept-Encoding: gzip;q=0");
        FullHttpResponse identity = http.response();
        assertThat(identity.headers().contains(HttpHeaderNames.CONTENT_ENCODING))
                .isFalse();
        assertThat(identity.content().toString(StandardCharsets.UTF_8)).isEqualTo(PLAYLIST);
        assertThat(identity.headers().get(HttpHeaderNames.ETAG)).isNotEqualTo(gzipEtag);
        assertThat(identity.headers().get(HttpHeaderNames.CACHE_CONTROL)).isEqualTo("public, max-age=1");
        identity.release();
        assertThat(http.service.counters().count(HttpCounters.Event.GZIPPED_RESPONSE))
                .isEqualTo(1);
    }

    @Test
    void mediaIsNeverGzipped() {
        start(HttpLimits.DEFAULTS).get("/live/a/part.m4s", "Accept-Encoding: gzip");
        FullHttpResponse response = http.response();
        assertThat(response.headers().contains(HttpHeaderNames.CONTENT_ENCODING))
                .isFalse();
        assertThat(response.headers().contains(HttpHeaderNames.VARY)).isFalse();
        assertThat(response.content().readableBytes()).isEqualTo(4096);
        response.release();
    }

    @Test
    void headSendsTheHeadersOfGetWithoutTheBody() {
        start(HttpLimits.DEFAULTS).send("HEAD /live/a/part.m4s HTTP/1.1\r\nHost: t\r\n\r\n");
        String raw = http.rawOutput();
        assertThat(raw)
                .startsWith("HTTP/1.1 200 OK\r\n")
                .contains("content-length: 4096\r\n")
                .endsWith("\r\n\r\n");
        assertThat(http.service.counters().bodyBytes()).isZero();
    }

    @Test
    void corsHeadersAndPreflight() {
        start(HttpLimits.DEFAULTS).get("/live/a/part.m4s", "Origin: https://player.example");
        FullHttpResponse response = http.response();
        assertThat(response.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN))
                .isEqualTo("*");
        assertThat(response.headers().get(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS))
                .contains("ETag");
        response.release();

        http.send("OPTIONS /live/a/part.m4s HTTP/1.1\r\nHost: t\r\nOrigin: https://player.example\r\n"
                + "Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: range\r\n\r\n");
        FullHttpResponse preflight = http.response();
        assertThat(preflight.status()).isEqualTo(HttpResponseStatus.NO_CONTENT);
        assertThat(preflight.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS))
                .isEqualTo("GET, HEAD, OPTIONS");
        assertThat(preflight.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS))
                .contains("Range");
        assertThat(preflight.headers().get(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE))
                .isEqualTo("86400");
        preflight.release();
    }

    @Test
    void listedOriginsAreEchoedWithVaryOrigin() {
        CorsPolicy policy = new CorsPolicy(Set.of("https://a.example"), List.of(), List.of(), 60);
        HttpRoutes routes = HttpRoutes.builder()
                .get("/x", "api", ex -> ex.reply(HttpResponseStatus.OK).send("x"))
                .cors(policy)
                .build();
        try (EmbeddedHttp server = new EmbeddedHttp(routes, HttpLimits.DEFAULTS)) {
            server.get("/x", "Origin: https://a.example");
            FullHttpResponse allowed = server.response();
            assertThat(allowed.headers().get(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN))
                    .isEqualTo("https://a.example");
            assertThat(allowed.headers().getAll(HttpHeaderNames.VARY)).contains("origin");
            allowed.release();
            server.get("/x", "Origin: https://b.example");
            FullHttpResponse other = server.response();
            assertThat(other.headers().contains(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN))
                    .isFalse();
            other.release();
        }
    }

    @Test
    void theServerAnswers404405AndPostBodies() {
        start(HttpLimits.DEFAULTS).get("/nothing/here");
        FullHttpResponse missing = http.response();
        assertThat(missing.status()).isEqualTo(HttpResponseStatus.NOT_FOUND);
        assertThat(missing.headers().get(HttpHeaderNames.CACHE_CONTROL)).isEqualTo("no-store");
        missing.release();

        http.send("DELETE /live/a/part.m4s HTTP/1.1\r\nHost: t\r\n\r\n");
        FullHttpResponse wrongMethod = http.response();
        assertThat(wrongMethod.status()).isEqualTo(HttpResponseStatus.METHOD_NOT_ALLOWED);
        assertThat(wrongMethod.headers().get(HttpHeaderNames.ALLOW)).isEqualTo("GET, HEAD, OPTIONS");
        wrongMethod.release();

        http.send("POST /api/items HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\n{\"name\":1}\n");
        FullHttpResponse created = http.response();
        assertThat(created.status()).isEqualTo(HttpResponseStatus.CREATED);
        assertThat(created.content().toString(StandardCharsets.UTF_8)).isEqualTo("{\"name\":1}\n");
        created.release();
        assertThat(http.service.counters().requests(HttpRoutes.OTHER, 404)).isEqualTo(1);
        assertThat(http.service.counters().requests("part", 405)).isEqualTo(1);
    }

    @Test
    void aThrowingOrSilentHandlerGets500AndTheConnectionLivesOn() {
        start(HttpLimits.DEFAULTS).get("/throws");
        FullHttpResponse thrown = http.response();
        assertThat(thrown.status()).isEqualTo(HttpResponseStatus.INTERNAL_SERVER_ERROR);
        thrown.release();
        http.get("/silent");
        FullHttpResponse silent = http.response();
        assertThat(silent.status()).isEqualTo(HttpResponseStatus.INTERNAL_SERVER_ERROR);
        silent.release();
        assertThat(http.service.counters().count(HttpCounters.Event.HANDLER_ERROR))
                .isEqualTo(2);
        http.get("/live/a/part.m4s");
        FullHttpResponse fine = http.response();
        assertThat(fine.status()).isEqualTo(HttpResponseStatus.OK);
        fine.release();
    }

    @Test
    void aHeldRequestIsAnsweredWhenReleasedFromAnotherThread() throws Exception {
        start(HttpLimits.DEFAULTS).get("/hold");
        assertThat(http.response()).isNull();
        assertThat(held).hasSize(1);
        assertThat(http.service.counters().heldNow()).isEqualTo(1);
        HttpExchange exchange = held.get(0);
        Thread releaser = new Thread(() -> exchange.respond(playlist, CacheControl.maxAge(6)));
        releaser.start();
        releaser.join();
        FullHttpResponse response = http.response();
        assertThat(response.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(response.content().toString(StandardCharsets.UTF_8)).isEqualTo(PLAYLIST);
        response.release();
        assertThat(http.service.counters().heldNow()).isZero();
        assertThat(http.service.counters().count(HttpCounters.Event.HELD_RELEASED))
                .isEqualTo(1);
        http.advance(10, TimeUnit.SECONDS);
        assertThat(http.response()).isNull(); // the timeout was cancelled with the answer
    }

    @Test
    void aHeldRequestTimesOutWith503OrTheCallbacksAnswer() {
        start(HttpLimits.DEFAULTS).get("/hold");
        http.advance(2999, TimeUnit.MILLISECONDS);
        assertThat(http.response()).isNull();
        http.advance(1, TimeUnit.MILLISECONDS);
        FullHttpResponse timedOut = http.response();
        assertThat(timedOut.status()).isEqualTo(HttpResponseStatus.SERVICE_UNAVAILABLE);
        timedOut.release();

        http.get("/hold-custom");
        http.advance(1, TimeUnit.SECONDS);
        FullHttpResponse custom = http.response();
        assertThat(custom.status()).isEqualTo(HttpResponseStatus.OK);
        assertThat(custom.content().toString(StandardCharsets.UTF_8)).startsWith("timed out");
        custom.release();
        assertThat(http.service.counters().count(HttpCounters.Event.HELD_TIMED_OUT))
                .isEqualTo(2);
        assertThat(http.service.counters().heldNow()).isZero();
        // A late answer to the exchange that timed out is a bug the server reports, not a second response.
        HttpExchange late = held.get(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> late.respond(HttpResponseStatus.OK))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aClientThatGoesAwayCancelsItsHeldRequest() {
        start(HttpLimits.DEFAULTS).get("/hold");
        assertThat(http.service.counters().heldNow()).isEqualTo(1);
        http.server.close();
        assertThat(cancelled.get()).isEqualTo(1);
        assertThat(http.service.counters().heldNow()).isZero();
        assertThat(http.service.counters().count(HttpCounters.Event.HELD_CANCELLED))
                .isEqualTo(1);
        // Answering it now does nothing, and releases what it was given.
        ByteBuf body = Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII);
        held.get(0).respond(HttpResponseStatus.OK, "text/plain", body);
        assertThat(body.refCnt()).isZero();
        // The callback also runs when registered after the cancel.
        held.get(0).onCancel(cancelled::incrementAndGet);
        assertThat(cancelled.get()).isEqualTo(2);
    }

    @Test
    void heldLimitsAnswer429PerClientAnd503InTotal() {
        start(HttpLimits.DEFAULTS.toBuilder().heldRequests(3, 2).build());
        http.get("/hold");
        http.get("/hold"); // pipelined behind the first, so held only once the first is answered
        assertThat(held).hasSize(1);
        held.get(0).respond(HttpResponseStatus.NO_CONTENT);
        FullHttpResponse first = http.response();
        assertThat(first.status()).isEqualTo(HttpResponseStatus.NO_CONTENT);
        first.release();
        assertThat(held).hasSize(2);

        try (EmbeddedHttp second = new EmbeddedHttp(http.service)) {
            second.get("/hold");
            assertThat(held).hasSize(3);
            // All embedded connections share one client IP (none), which now holds 2.
            try (EmbeddedHttp third = new EmbeddedHttp(http.service)) {
                third.get("/hold");
                FullHttpResponse refused = third.response();
                assertThat(refused.status()).isEqualTo(HttpResponseStatus.TOO_MANY_REQUESTS);
                assertThat(refused.headers().get(HttpHeaderNames.RETRY_AFTER)).isEqualTo("1");
                refused.release();
            }
        }
        assertThat(http.service.counters().count(HttpCounters.Event.HELD_REJECTED_PER_IP))
                .isEqualTo(1);
    }

    @Test
    void heldTotalLimitAnswers503() {
        start(HttpLimits.DEFAULTS.toBuilder().heldRequests(1, 5).build());
        http.get("/hold");
        try (EmbeddedHttp second = new EmbeddedHttp(http.service)) {
            second.get("/hold");
            FullHttpResponse refused = second.response();
            assertThat(refused.status()).isEqualTo(HttpResponseStatus.SERVICE_UNAVAILABLE);
            refused.release();
        }
        assertThat(http.service.counters().count(HttpCounters.Event.HELD_REJECTED_TOTAL))
                .isEqualTo(1);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderBehindAHeldOne() {
        start(HttpLimits.DEFAULTS);
        http.send("GET /hold HTTP/1.1\r\nHost: t\r\n\r\nGET /echo/two HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /echo/three HTTP/1.1\r\nHost: t\r\n\r\n");
        assertThat(http.response()).isNull();
        assertThat(http.server.config().isAutoRead()).isFalse();
        held.get(0).reply(HttpResponseStatus.OK).send("one");
        List<String> bodies = new ArrayList<>();
        FullHttpResponse response;
        while ((response = http.response()) != null) {
            bodies.add(response.content().toString(StandardCharsets.UTF_8));
            response.release();
        }
        assertThat(bodies).containsExactly("one", "two?null", "three?null");
        assertThat(http.server.config().isAutoRead()).isTrue();
    }

    @Test
    void tooManyPipelinedRequestsCloseTheConnection() {
        start(HttpLimits.DEFAULTS.toBuilder().pipelinedRequests(2).build());
        http.send("GET /hold HTTP/1.1\r\nHost: t\r\n\r\n" + "GET /echo/x HTTP/1.1\r\nHost: t\r\n\r\n".repeat(3));
        assertThat(http.server.isActive()).isFalse();
        assertThat(http.service.counters().count(HttpCounters.Event.CLOSED_PIPELINE_LIMIT))
                .isEqualTo(1);
        assertThat(cancelled.get()).isEqualTo(1);
    }

    @Test
    void oversizedRequestsGet414And431AndTheConnectionCloses() {
        start(HttpLimits.DEFAULTS.toBuilder().requestSizes(100, 512, 1024).build())
                .get("/echo/" + "x".repeat(200));
        FullHttpResponse longUri = http.response();
        assertThat(longUri.status()).isEqualTo(HttpResponseStatus.REQUEST_URI_TOO_LONG);
        longUri.release();
        assertThat(http.server.isActive()).isFalse();

        try (EmbeddedHttp headers = new EmbeddedHttp(http.service)) {
            headers.get("/echo/x", "X-Big: " + "y".repeat(1000));
            FullHttpResponse big = headers.response();
            assertThat(big.status()).isEqualTo(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
            big.release();
            assertThat(headers.server.isActive()).isFalse();
        }
        try (EmbeddedHttp body = new EmbeddedHttp(http.service)) {
            body.send("POST /api/items HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n");
            FullHttpResponse tooLarge = body.response();
            assertThat(tooLarge.status()).isEqualTo(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
            tooLarge.release();
        }
    }

    @Test
    void garbageGets400() {
        start(HttpLimits.DEFAULTS).send("\u0001\u0002 NOT HTTP AT ALL\r\n\r\n");
        FullHttpResponse response = http.response();
        assertThat(response.status()).isEqualTo(HttpResponseStatus.BAD_REQUEST);
        response.release();
        assertThat(http.server.isActive()).isFalse();
    }

    @Test
    void aSlowRequestGets408AtTheRequestTimeout() {
        start(HttpLimits.DEFAULTS).send("GET /echo/x HTTP/1.1\r\nHost: t\r\n");
        http.advance(5, TimeUnit.SECONDS);
        http.send("X-Slow: 1\r\n");
        http.advance(4999, TimeUnit.MILLISECONDS);
        assertThat(http.server.isActive()).isTrue();
        http.advance(1, TimeUnit.MILLISECONDS);
        assertThat(http.rawOutput()).startsWith("HTTP/1.1 408 Request Timeout\r\n");
        assertThat(http.server.isActive()).isFalse();
        assertThat(http.service.counters().count(HttpCounters.Event.CLOSED_SLOW_REQUEST))
                .isEqualTo(1);
    }

    @Test
    void aCompleteRequestStopsTheSlowRequestClock() {
        start(HttpLimits.DEFAULTS).get("/hold");
        http.advance(2, TimeUnit.SECONDS);
        held.get(0).respond(HttpResponseStatus.NO_CONTENT);
        http.response().release();
        http.advance(20, TimeUnit.SECONDS);
        assertThat(http.server.isActive()).isTrue();
    }

    @Test
    void aConnectionThatOnlyGetsHasNoAggregatorAndNoIdleHandler() {
        start(HttpLimits.DEFAULTS).get("/echo/a");
        http.response().release();
        assertThat(http.server.pipeline().get(BodilessRequests.AGGREGATOR_NAME)).isNull();
        assertThat(http.server.pipeline().get(io.netty.handler.timeout.IdleStateHandler.class))
                .isNull();
        assertThat(http.server.pipeline().get(ConnectionGuard.class)).isNotNull();
    }

    @Test
    void anIdleConnectionClosesButNotWhileARequestIsHeld() {
        start(HttpLimits.DEFAULTS.toBuilder().timeouts(1000, 10_000, 30_000).build())
                .get("/hold");
        http.advance(1500, TimeUnit.MILLISECONDS);
        assertThat(http.server.isActive()).isTrue();
        held.get(0).respond(HttpResponseStatus.NO_CONTENT);
        http.response().release();
        http.advance(999, TimeUnit.MILLISECONDS);
        assertThat(http.server.isActive()).isTrue();
        http.advance(2, TimeUnit.MILLISECONDS);
        assertThat(http.server.isActive()).isFalse();
        assertThat(http.service.counters().count(HttpCounters.Event.CLOSED_IDLE))
                .isEqualTo(1);
    }

    @Test
    void connectionLimitsCloseNewConnections() {
        HttpService service = new HttpService(
                routes(), HttpLimits.DEFAULTS.toBuilder().connections(2, 2).build());
        try (EmbeddedHttp a = new EmbeddedHttp(service);
                EmbeddedHttp b = new EmbeddedHttp(service);
                EmbeddedHttp c = new EmbeddedHttp(service)) {
            assertThat(a.server.isActive()).isTrue();
            assertThat(b.server.isActive()).isTrue();
            assertThat(c.server.isActive()).isFalse();
            assertThat(service.counters().connectionsOpen()).isEqualTo(2);
        }
        assertThat(service.counters().connectionsOpen()).isZero();
        assertThat(service.counters().count(HttpCounters.Event.CONNECTION_REJECTED_TOTAL))
                .isEqualTo(1);
    }

    @Test
    void aLimitOutOfRangeNamesItself() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> HttpLimits.DEFAULTS.toBuilder().connections(0, 5).build())
                .hasMessage("maxConnections must be at least 1, got 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HttpLimits.DEFAULTS.toBuilder()
                        .requestSizes(10, 1024, 0)
                        .build())
                .hasMessage("maxUriBytes must be at least 64, got 10");
    }

    @Test
    void cacheControlHelpers() {
        assertThat(CacheControl.maxAgeBelow(Duration.ofMillis(200)).toString()).isEqualTo("public, max-age=0");
        assertThat(CacheControl.maxAgeBelow(Duration.ofSeconds(2)).toString()).isEqualTo("public, max-age=1");
        assertThat(CacheControl.maxAgeBelow(Duration.ofMillis(2500)).toString()).isEqualTo("public, max-age=2");
        assertThat(CacheControl.noStore().toString()).isEqualTo("no-store");
    }
}
