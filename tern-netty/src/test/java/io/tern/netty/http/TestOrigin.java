package io.tern.netty.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.stream.TlsContextSource;
import io.tern.netty.stream.TlsSettings;
import io.tern.netty.websocket.WebSocketEndpoint;
import io.tern.testkit.TestTls;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An {@link HttpServer} on loopback with a plain and a TLS listener (a throwaway self-signed
 * certificate) and routes the real-client tests drive: plain objects, a barrier that answers only
 * once N requests are held at once, held requests the test releases, streams the test writes, and a
 * WebSocket echo at {@code /ws} (the WebSocket endpoint as an upgrade handler).
 */
final class TestOrigin implements AutoCloseable {
    static final int PART_BYTES = 64 * 1024;

    final HttpServer server;
    final SharedBody part;
    final BlockingQueue<HttpExchange> held = new LinkedBlockingQueue<>();
    final BlockingQueue<BodyStream> streams = new LinkedBlockingQueue<>();
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final List<HttpExchange> barrier = new ArrayList<>();
    private final TlsContextSource tls;
    private final Path dir;

    TestOrigin(HttpLimits limits) throws Exception {
        byte[] bytes = new byte[PART_BYTES];
        new SecureRandom().nextBytes(bytes);
        part = SharedBody.of(bytes, "video/mp4");
        dir = Files.createTempDirectory("tern-http-test");
        TestTls.Pem pem = TestTls.selfSigned(dir, "CN=localhost");
        tls = HttpTls.load(new TlsSettings(pem.cert(), pem.key(), null, false, 0));
        HttpRoutes routes = HttpRoutes.builder()
                .get(
                        "/hello",
                        "api",
                        ex -> ex.reply(HttpResponseStatus.OK)
                                .cache(CacheControl.noStore())
                                .send("hello " + (ex.isHttp2() ? "h2" : "h1") + (ex.isSecure() ? " tls" : "") + "\n"))
                .get("/part", "part", ex -> ex.respond(part, CacheControl.immutable()))
                .get("/barrier", "part", this::barrier)
                .get("/hold", "playlist", ex -> {
                    if (ex.defer(10, TimeUnit.SECONDS, null)) {
                        ex.onCancel(cancelled::countDown);
                        held.add(ex);
                    }
                })
                .get("/hold-short", "playlist", ex -> ex.defer(300, TimeUnit.MILLISECONDS, null))
                .get(
                        "/stream",
                        "part",
                        ex -> streams.add(ex.reply(HttpResponseStatus.OK).contentType("video/mp4").stream()))
                .upgrade(
                        "/ws",
                        "websocket",
                        "websocket",
                        new WebSocketEndpoint(
                                WebSocketConfig.defaults(),
                                request -> (connection, text, buf, offset, length) ->
                                        connection.send(text, buf, offset, length)))
                .build();
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server = HttpServer.builder(new HttpService(routes, limits))
                .listen(loopback)
                .listenTls(loopback, tls::current)
                .start();
    }

    /** Holds each request until {@code n} are held at once, then answers them all. */
    private void barrier(HttpExchange exchange) {
        int n = Integer.parseInt(exchange.query("n"));
        if (!exchange.defer(20, TimeUnit.SECONDS, null)) {
            return;
        }
        barrier.add(exchange);
        if (barrier.size() >= n) {
            for (HttpExchange waiting : barrier) {
                waiting.respond(part, CacheControl.immutable());
            }
            barrier.clear();
        }
    }

    String http(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    String https(String path) {
        return "https://127.0.0.1:" + server.tlsPort() + path;
    }

    HttpCounters counters() {
        return server.counters();
    }

    @Override
    public void close() throws java.io.IOException {
        server.close();
        tls.close();
        part.release();
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(dir);
    }
}
