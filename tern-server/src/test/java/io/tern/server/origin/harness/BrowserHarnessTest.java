package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpCounters;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.netty.http.HttpTls;
import io.tern.netty.http.SharedBody;
import io.tern.netty.stream.TlsContextSource;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the browser harness with Tern's HTTP server: headless Chromium loads a page, a script and
 * eight assets over h2 (TLS, ALPN) and over HTTP/1.1, and hls.js from the harness's npm project
 * loads with MSE able to play H.264 and AAC.
 */
class BrowserHarnessTest {
    private static final String PAGE = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>tern harness</title>
            <script src="/hls.js"></script><script src="/app.js"></script></head>
            <body>tern</body></html>
            """;
    private static final String APP = """
            (async () => {
              const assets = await Promise.all([...Array(8).keys()].map(
                  (i) => fetch('/asset/' + i).then((r) => r.json())));
              window.ternResult = {
                assetsInOrder: assets.every((a, i) => a.n === i),
                assets: assets.length,
                hlsSupported: typeof Hls !== 'undefined' && Hls.isSupported(),
                hlsVersion: typeof Hls !== 'undefined' ? Hls.version : null,
                mseH264Aac: MediaSource.isTypeSupported('video/mp4; codecs="avc1.64001f,mp4a.40.2"'),
              };
            })().catch((e) => { window.ternResult = { error: String(e) }; });
            """;

    private Path dir;
    private TlsContextSource tls;
    private HttpServer server;
    private SharedBody hls;
    private SharedBody page;
    private SharedBody app;

    @BeforeEach
    void start() throws Exception {
        ChromiumPage.require();
        Harness.require("hls.js", Harness.npmModule("hls.js"));
        dir = Files.createTempDirectory("tern-browser-harness");
        tls = HttpTls.load(TestServers.selfSigned(dir));
        hls = SharedBody.of(
                Files.readAllBytes(Harness.ORIGIN_DIR.resolve("node_modules/hls.js/dist/hls.min.js")),
                "text/javascript");
        page = SharedBody.utf8(PAGE, "text/html; charset=utf-8");
        app = SharedBody.utf8(APP, "text/javascript");
        HttpRoutes routes = HttpRoutes.builder()
                .get("/", "page", ex -> ex.respond(page, CacheControl.noCache()))
                .get("/app.js", "page", ex -> ex.respond(app, CacheControl.noCache()))
                .get("/hls.js", "page", ex -> ex.respond(hls, CacheControl.maxAge(3600)))
                .get(
                        "/asset/{n}",
                        "api",
                        ex -> ex.reply(HttpResponseStatus.OK)
                                .contentType("application/json")
                                .cache(CacheControl.noStore())
                                .send("{\"n\":" + Integer.parseInt(ex.pathParam("n")) + "}"))
                .build();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                .listen(loopback)
                .listenTls(loopback, tls::current)
                .start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
            tls.close();
            hls.release();
            page.release();
            app.release();
        }
        if (dir != null) {
            Harness.deleteTree(dir);
        }
    }

    @Test
    void chromiumFetchesThePageAndItsAssetsOverH2() throws Exception {
        Map<String, Object> page =
                ChromiumPage.open("https://127.0.0.1:" + server.tlsPort() + "/", "window.ternResult", true, 30_000);
        assertLoaded(page, "h2");
        assertThat(server.counters().count(HttpCounters.Event.HTTP2_TLS_CONNECTION))
                .isGreaterThanOrEqualTo(1);
        assertThat(server.counters().count(HttpCounters.Event.GZIPPED_RESPONSE))
                .as("hls.js (text) went gzipped")
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void chromiumFetchesThePageAndItsAssetsOverHttp11() throws Exception {
        Map<String, Object> page =
                ChromiumPage.open("http://127.0.0.1:" + server.port() + "/", "window.ternResult", false, 30_000);
        assertLoaded(page, "http/1.1");
        assertThat(server.counters().count(HttpCounters.Event.HTTP2_TLS_CONNECTION))
                .isZero();
        assertThat(server.counters().count(HttpCounters.Event.HTTP1_CONNECTION)).isGreaterThanOrEqualTo(1);
    }

    private static void assertLoaded(Map<String, Object> page, String protocol) {
        Object result = page.get("result");
        assertThat(Json.at(result, "error")).as("page error").isNull();
        assertThat(Json.at(result, "assetsInOrder")).isEqualTo(Boolean.TRUE);
        assertThat(Json.at(result, "assets")).isEqualTo(8.0);
        assertThat(Json.at(result, "hlsSupported")).as("hls.js with MSE").isEqualTo(Boolean.TRUE);
        assertThat(Json.at(result, "hlsVersion")).isEqualTo("1.7.4");
        assertThat(Json.at(result, "mseH264Aac")).as("MSE plays H.264 and AAC").isEqualTo(Boolean.TRUE);
        assertThat(Json.at(page, "navigation", "protocol")).isEqualTo(protocol);
        List<Object> resources = Json.list(page, "resources");
        assertThat(resources).hasSizeGreaterThanOrEqualTo(10); // hls.js, app.js, 8 assets
        for (Object resource : resources) {
            assertThat(Json.at(resource, "protocol")).as("%s", resource).isEqualTo(protocol);
        }
    }
}
