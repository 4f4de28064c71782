package io.tern.netty.websocket.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.tern.netty.websocket.WebSocketEchoServer;
import io.tern.netty.websocket.WebSocketServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Headless Chromium opens a WebSocket to Tern's echo server and exchanges text, binary and large
 * messages (Chromium offers permessage-deflate, so the exchange is compressed). The page posts its
 * verdict to a small HTTP server run by the test.
 */
@Timeout(120)
class ChromiumInteropTest {
    private static final String PAGE = """
            <!DOCTYPE html><html><body><script>
            const report = (verdict) => fetch('/result', {method: 'POST', body: verdict});
            const binary = new Uint8Array(300000).map((_, i) => (i * 31) & 0xff);
            const large = 'Grüße κόσμε 日本 '.repeat(70000);
            const cases = [['text', 'hello from chromium'], ['binary', binary], ['large', large], ['empty', '']];
            const same = (a, b) => {
              if (typeof b === 'string') return a === b;
              const u = new Uint8Array(a);
              return u.length === b.length && u.every((v, i) => v === b[i]);
            };
            let i = 0;
            const ws = new WebSocket('ws://127.0.0.1:%d/chromium');
            ws.binaryType = 'arraybuffer';
            ws.onopen = () => ws.send(cases[0][1]);
            ws.onmessage = (e) => {
              if (!same(e.data, cases[i][1])) { report('FAIL ' + cases[i][0]); return; }
              if (++i < cases.length) { ws.send(cases[i][1]); } else { ws.close(1000, 'done'); }
            };
            ws.onclose = (e) => report(i === cases.length && e.code === 1000 && e.wasClean
                ? 'OK ' + ws.extensions : 'FAIL close ' + e.code + ' after ' + i);
            ws.onerror = () => report('FAIL error after ' + i);
            </script></body></html>
            """;

    @Test
    void chromiumExchangesTextBinaryAndLargeMessages() throws Exception {
        Peers.requireChromium();
        CompletableFuture<String> verdict = new CompletableFuture<>();
        Path profile = Files.createTempDirectory("tern-chromium");
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        try (WebSocketServer server = WebSocketEchoServer.start(0)) {
            byte[] page = PAGE.formatted(server.port()).getBytes(StandardCharsets.UTF_8);
            http.createContext("/page", exchange -> {
                exchange.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, page.length);
                exchange.getResponseBody().write(page);
                exchange.close();
            });
            http.createContext("/result", exchange -> {
                verdict.complete(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            http.start();
            List<String> command = List.of(
                    Peers.CHROMIUM.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--remote-debugging-port=0",
                    "--user-data-dir=" + profile,
                    "http://127.0.0.1:" + http.getAddress().getPort() + "/page");
            try (PeerProcess chromium = new PeerProcess(profile, command)) {
                String result = verdict.get(90, TimeUnit.SECONDS);
                assertThat(result)
                        .as("Chromium output: %s", chromium.transcript())
                        .isEqualTo("OK permessage-deflate");
            }
        } finally {
            http.stop(0);
            deleteRecursively(profile);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
