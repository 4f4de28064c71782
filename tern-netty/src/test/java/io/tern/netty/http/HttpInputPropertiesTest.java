package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http2.Http2CodecUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Whatever a client sends, the server answers with an HTTP response, a close, or nothing yet; no
 * exception escapes, and every buffer is released (the build runs with paranoid leak detection).
 */
class HttpInputPropertiesTest {
    private static final HttpRoutes ROUTES = HttpRoutes.builder()
            .get(
                    "/live/{stream}/{file}",
                    "part",
                    ex -> ex.reply(HttpResponseStatus.OK).send(ex.pathParam("stream") + "/" + ex.pathParam("file")))
            .get("/hold", "playlist", ex -> ex.defer(1, TimeUnit.SECONDS, null))
            .get(
                    "/static/{path...}",
                    "page",
                    ex -> ex.reply(HttpResponseStatus.OK).send(ex.pathParam("path")))
            .build();

    @Property(tries = 300)
    void randomBytesNeverEscapeAsExceptions(@ForAll @Size(max = 600) byte[] bytes) {
        feed(Unpooled.wrappedBuffer(bytes));
    }

    @Property(tries = 300)
    void randomBytesAfterARequestLineStillGetAnAnswerOrAClose(
            @ForAll("requestPrefixes") String prefix, @ForAll @Size(max = 300) byte[] bytes) {
        feed(Unpooled.wrappedBuffer(prefix.getBytes(StandardCharsets.ISO_8859_1), bytes));
    }

    @Property(tries = 200)
    void randomFramesAfterTheHttp2PrefaceNeverEscape(@ForAll @Size(max = 400) byte[] bytes) {
        feed(Unpooled.wrappedBuffer(Http2CodecUtil.connectionPrefaceBuf(), Unpooled.wrappedBuffer(bytes)));
    }

    @Provide
    Arbitrary<String> requestPrefixes() {
        return Arbitraries.of(
                "GET /live/a/b HTTP/1.1\r\n",
                "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n",
                "POST /live/a/b HTTP/1.1\r\nContent-Length: 10\r\n\r\n",
                "GET /static/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                "GET /x HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: \r\n\r\n");
    }

    private static void feed(ByteBuf input) {
        try (EmbeddedHttp http = new EmbeddedHttp(ROUTES, HttpLimits.DEFAULTS)) {
            http.server.writeInbound(input);
            http.advance(20, TimeUnit.SECONDS);
            String output = http.rawOutput();
            boolean http1 = output.startsWith("HTTP/1.");
            boolean http2 = output.length() >= 9; // a server preface: a SETTINGS frame
            assertThat(output.isEmpty() || http1 || http2).as(output).isTrue();
            assertThat(http.service.counters().heldNow()).isZero();
        }
    }

    @Property
    void pathPatternsMatchOnlyWhatTheyDescribe(@ForAll("paths") String path) {
        PathPattern pattern = new PathPattern("/live/{stream}/{file}");
        String[] captures = pattern.match(path);
        if (captures != null) {
            assertThat(path).startsWith("/live/");
            assertThat(captures).hasSize(2).doesNotContainNull();
            assertThat(captures[0]).isNotEmpty();
            assertThat(captures[1]).isNotEmpty();
        }
        new PathPattern("/static/{rest...}").match(path);
        RequestDispatch.pathOf(path);
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> segment =
                Arbitraries.strings().withChars("abc%2F0+é/").ofMaxLength(6);
        return Arbitraries.oneOf(
                segment.list().ofMaxSize(5).map(parts -> "/" + String.join("/", parts)),
                segment.list().ofMaxSize(3).map(parts -> "/live/" + String.join("/", parts)),
                Arbitraries.strings().ofMaxLength(40));
    }

    @Property
    void headerParsersTakeAnyString(@ForAll String value) {
        Gzip.accepted(value);
        EntityTags.matches(value, "\"1-abc\"");
        HttpDates.parse(value);
    }

    @Example
    void pathPatternExamples() {
        PathPattern pattern = new PathPattern("/live/{stream}/{file}");
        assertThat(pattern.match("/live/cam1/index.m3u8")).containsExactly("cam1", "index.m3u8");
        assertThat(pattern.match("/live/cam%201/a%2Fb")).containsExactly("cam 1", "a/b");
        assertThat(pattern.match("/live/cam1")).isNull();
        assertThat(pattern.match("/live//x")).isNull();
        assertThat(pattern.match("/live/a/b/c")).isNull();
        assertThat(pattern.match("/live/%zz/x")).isNull();
        assertThat(new PathPattern("/static/{rest...}").match("/static/a/b.js")).containsExactly("a/b.js");
        assertThat(RequestDispatch.pathOf("http://host:8080/live/a?x=1")).isEqualTo("/live/a");
        assertThat(RequestDispatch.pathOf("*")).isNull();
        assertThat(Gzip.accepted("deflate, gzip;q=0.5")).isTrue();
        assertThat(Gzip.accepted("gzip;q=0")).isFalse();
        assertThat(Gzip.accepted("*")).isTrue();
        assertThat(Gzip.accepted("identity")).isFalse();
        assertThat(EntityTags.matches("\"a\", W/\"1-abc\"", "\"1-abc\"")).isTrue();
        assertThat(EntityTags.matches("\"a\"", "\"1-abc\"")).isFalse();
    }
}
