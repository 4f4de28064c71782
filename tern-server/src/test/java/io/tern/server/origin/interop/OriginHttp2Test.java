package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.M3u8;
import io.tern.netty.http.HttpCounters.Event;
import io.tern.netty.stream.TlsSettings;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.harness.TestServers;
import io.tern.testkit.Await;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The origin over HTTP/2, as LL-HLS players use it: ffmpeg publishes, and the JDK's HTTP/2 client
 * fetches the playlists, a blocking reload, the hinted part and a segment's parts in parallel, on
 * one h2 connection over TLS (ALPN) and on one h2c connection (Upgrade) to the plain port. Every
 * answer is HTTP/2, and each part has the same bytes over h2, h2c and HTTP/1.1.
 */
class OriginHttp2Test {
    @TempDir
    Path dir;

    @Test
    void partsArriveInParallelOnOneHttp2ConnectionOverTlsAndOverH2c() throws Exception {
        FfmpegPublisher.require();
        TlsSettings tls = TestServers.selfSigned(dir);
        int httpsPort = Harness.freePort();
        try (OriginFixture origin = new OriginFixture(
                        "no-publish-auth",
                        "https-port=" + httpsPort,
                        "tls-cert=" + tls.certFile(),
                        "tls-key=" + tls.keyFile());
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0);
                HttpClient h2 = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_2)
                        .sslContext(trusting(tls.certFile()))
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                HttpClient h2c = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_2)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build()) {
            String instance = origin.awaitStream("cam1", 30_000);
            String base = "/live/cam1/" + instance + "/";
            String https = "https://127.0.0.1:" + httpsPort;
            String http = origin.url("");

            HttpResponse<String> multivariant = h2.send(get(https + "/live/cam1/index.m3u8"), string());
            assertThat(multivariant.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertThat(multivariant.statusCode()).isEqualTo(200);
            M3u8 playlist = awaitTwoSegments(h2, https + base + "video.m3u8");

            for (var client : List.of(new Target(h2, https), new Target(h2c, http))) {
                M3u8.Seg last = playlist.segments.get(playlist.segments.size() - 2);
                HttpResponse<String> held = client.http.send(
                        get(client.origin + base + "video.m3u8?_HLS_msn=" + (last.msn + 2) + "&_HLS_part=0"), string());
                assertThat(held.version())
                        .as("blocking reload, %s", client.origin)
                        .isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(held.statusCode()).isEqualTo(200);

                List<CompletableFuture<HttpResponse<byte[]>>> parts = new ArrayList<>();
                for (M3u8.PartTag part : last.parts) {
                    parts.add(client.http.sendAsync(
                            get(client.origin + base + part.uri()), HttpResponse.BodyHandlers.ofByteArray()));
                }
                for (int i = 0; i < parts.size(); i++) {
                    HttpResponse<byte[]> r = parts.get(i).get(20, TimeUnit.SECONDS);
                    assertThat(r.version())
                            .as("%s %s", client.origin, last.parts.get(i).uri())
                            .isEqualTo(HttpClient.Version.HTTP_2);
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body())
                            .as("the same bytes over HTTP/1.1")
                            .isEqualTo(origin.getBytes(base + last.parts.get(i).uri())
                                    .body());
                }
            }
            assertThat(origin.server.httpCounters().count(Event.HTTP2_TLS_CONNECTION))
                    .as("one h2 connection carried every request over TLS; ffmpeg: %s", ffmpeg.log())
                    .isEqualTo(1);
            assertThat(origin.server.httpCounters().count(Event.H2C_UPGRADE))
                    .as("and one upgraded h2c connection on the plain port")
                    .isEqualTo(1);
        }
    }

    private record Target(HttpClient http, String origin) {}

    private static M3u8 awaitTwoSegments(HttpClient client, String url) throws Exception {
        M3u8 playlist =
                Await.awaitValue("two complete segments", Duration.ofSeconds(20), Duration.ofMillis(200), () -> {
                    M3u8 p = M3u8.parse(client.send(get(url), string()).body());
                    return p.segments.stream().filter(M3u8.Seg::complete).count() >= 2 ? p : null;
                });
        assertThat(playlist.segments.stream().filter(M3u8.Seg::complete).count())
                .isGreaterThanOrEqualTo(2);
        return playlist;
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(20))
                .build();
    }

    private static HttpResponse.BodyHandler<String> string() {
        return HttpResponse.BodyHandlers.ofString();
    }

    /** A TLS context that trusts exactly the test's self-signed certificate. */
    private static SSLContext trusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry(
                    "origin", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
