package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.srt.SrtPeers;
import io.tern.netty.srt.UdpImpairmentProxy;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.registry.StreamSnapshot;
import io.tern.testkit.Await;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code tern origin}'s SRT ingest with real peers: ffmpeg (libsrt 1.5) publishes encrypted with a
 * per-stream passphrase and a publish token in its stream id, and ffmpeg/ffprobe read the LL-HLS
 * back without an error line; a wrong passphrase and a missing token are refused at the handshake
 * while that stream keeps playing; srt-live-transmit, as a second publisher of the live stream, is
 * refused as a conflict; a publisher with a per-user passphrase loses nothing through 5% loss each
 * way. The refusals, the session's counters and the per-stream series are read from the snapshot
 * and Prometheus.
 */
class SrtOriginTest {
    private static final String CAM1_PASSPHRASE = "cam1-only-passphrase";
    private static final String SERVER_PASSPHRASE = "server-wide-passphrase";
    private static final String ALICE_PASSPHRASE = "alice-own-passphrase";

    /** 20 s of 720p30 H.264 (a keyframe a second) + AAC, as MPEG-TS: made once, sent with -c copy. */
    private static Path fixture;

    private OriginFixture origin;

    @BeforeAll
    static void encodeFixture() throws Exception {
        FfmpegPublisher.require();
        fixture = SrtPeers.fixture(Files.createTempDirectory("tern-srt-origin"), 20);
    }

    @AfterAll
    static void deleteFixture() throws Exception {
        if (fixture != null) {
            Files.deleteIfExists(fixture);
            Files.deleteIfExists(fixture.getParent());
        }
    }

    /** ffmpeg sending {@code seconds} of the fixture in real time to {@code url}, without re-encoding. */
    private static List<String> publish(String url, int seconds) {
        return List.of(
                "ffmpeg",
                "-hide_banner",
                "-nostdin",
                "-loglevel",
                "warning",
                "-re",
                "-i",
                fixture.toString(),
                "-t",
                Integer.toString(seconds),
                "-c",
                "copy",
                "-f",
                "mpegts",
                url);
    }

    @BeforeEach
    void start() throws Exception {
        FfmpegPublisher.require();
        Peers.requireFfprobe();
        Harness.require("srt-live-transmit", Harness.program("srt-live-transmit", "srt-tools"));
        origin = new OriginFixture(
                List.of(
                        "srt-passphrase = " + SERVER_PASSPHRASE,
                        "srt-user = alice:" + ALICE_PASSPHRASE,
                        "[stream cam1]",
                        "srt-passphrase = " + CAM1_PASSPHRASE,
                        "segment-target-ms = 1000"),
                "prometheus",
                "prometheus-port=" + Harness.freePort());
    }

    @AfterEach
    void stop() {
        if (origin != null) {
            origin.close();
        }
    }

    private String token(String name) {
        return origin.server
                .registry()
                .policy()
                .serverTokens()
                .mint("live", name, Instant.now().getEpochSecond() + 3600);
    }

    private String srtUrl(int port, String streamId, String passphrase, int pbkeylen) {
        return "srt://127.0.0.1:" + port + "?streamid=" + streamId + "&passphrase=" + passphrase + "&pbkeylen="
                + pbkeylen;
    }

    @Test
    void ffmpegPublishesEncryptedAndPlaysAsLlHlsWhileWrongPublishersAreRefused() throws Exception {
        int port = origin.server.srtAddress().getPort();
        String cam1 = "publish:live/cam1::" + token("cam1");
        Path log = Files.createTempFile("tern-srt-ffmpeg", ".log");
        Process ffmpeg = Peers.start(publish(srtUrl(port, cam1, CAM1_PASSPHRASE, 32), 20), log);
        try {
            String instance = origin.awaitStream("cam1", 20_000);

            Peers.Result wrongPassphrase = Peers.run(
                    publish(srtUrl(port, "publish:live/cam2::" + token("cam2"), "not-the-cam2-passphrase", 16), 2),
                    Duration.ofSeconds(30));
            assertThat(wrongPassphrase.exitCode()).as(wrongPassphrase.output()).isNotZero();
            Peers.Result noToken = Peers.run(
                    publish(srtUrl(port, "publish:live/cam3", SERVER_PASSPHRASE, 16), 2), Duration.ofSeconds(30));
            assertThat(noToken.exitCode()).as(noToken.output()).isNotZero();
            Peers.Result second = Peers.run(
                    List.of(
                            "bash",
                            "-c",
                            "head -c 131600 /dev/zero | srt-live-transmit -q -a:no -t:4 -chunk:1316 file://con '"
                                    + srtUrl(
                                            port,
                                            "#!::r=live/cam1,m=publish,token=" + token("cam1"),
                                            CAM1_PASSPHRASE,
                                            16)
                                    + "'"),
                    Duration.ofSeconds(30));
            assertThat(origin.server.registry().lookup("cam2"))
                    .as("no stream appears")
                    .isNull();
            assertThat(origin.server.registry().lookup("cam3"))
                    .as("no stream appears")
                    .isNull();

            String metrics = origin.get("http://127.0.0.1:" + origin.server.metricsPort() + "/metrics")
                    .body();
            assertThat(metrics)
                    .contains("tern_origin_srt_rejections_total{reason=\"bad secret\"} 1.0")
                    .contains("tern_origin_srt_rejections_total{reason=\"unauthorized\"} 1.0")
                    .as("srt-live-transmit, a second publisher of cam1: %s", second.output())
                    .contains("tern_origin_srt_rejections_total{reason=\"conflict\"} 1.0")
                    .contains("tern_origin_srt_sessions 1.0")
                    .contains("tern_origin_srt_stream_rtt_seconds{stream=\"cam1\"}")
                    .contains("tern_origin_srt_stream_latency_seconds{stream=\"cam1\"} 0.12")
                    .contains("tern_origin_srt_stream_packets_total{kind=\"received\",stream=\"cam1\"}");

            StreamSnapshot s = origin.server.registry().snapshot("cam1").get(5, TimeUnit.SECONDS);
            assertThat(s.live()).as("cam1 played on through the refusals").isTrue();
            assertThat(s.protocol()).isEqualTo("srt");
            assertThat(s.publisher()).startsWith("127.0.0.1:");
            assertThat(s.video().codecs()).startsWith("avc1.");
            assertThat(s.audio().codecs()).isEqualTo("mp4a.40.2");
            assertThat(s.srt()).isNotNull();
            assertThat(s.srt().keyLengthBytes()).isEqualTo(32);
            assertThat(s.srt().latencyMs()).isEqualTo(120);
            assertThat(s.srt().packetsReceived()).isGreaterThan(100);
            assertThat(s.srt().packetsUndecryptable()).isZero();
            assertThat(s.srt().tsContinuityErrors()).isZero();
            String media = origin.get("/live/cam1/" + instance + "/video.m3u8").body();
            assertThat(media).contains("#EXT-X-PART:").contains("#EXT-X-PRELOAD-HINT");
            Peers.Result decoded = Peers.decode(origin.playUrl("cam1"), 4);
            assertThat(decoded.lines())
                    .as("ffmpeg's errors decoding the LL-HLS")
                    .isEmpty();
            Peers.Result probe = Peers.probe(origin.url("/live/cam1/" + instance + "/video.m3u8"));
            assertThat(probe.output()).contains("codec_name=h264").contains("width=1280");

            assertThat(Peers.finish(ffmpeg, log, Duration.ofSeconds(40)).exitCode())
                    .as(Files.readString(log))
                    .isZero();
        } finally {
            ffmpeg.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /** The first 4 s of a 7 s stream suffer the loss (the tail has no successor to reveal a loss). */
    @Test
    void aPerUserPublisherThroughFivePercentLossEachWayLosesNothing() throws Exception {
        InetSocketAddress srt =
                new InetSocketAddress("127.0.0.1", origin.server.srtAddress().getPort());
        UdpImpairmentProxy.Impairment impairment = new UdpImpairmentProxy.Impairment(0.05, 20_000_000L, 0, 0);
        try (UdpImpairmentProxy proxy =
                new UdpImpairmentProxy(srt, impairment, impairment, 23).impairFor(4_000_000_000L)) {
            String url = srtUrl(proxy.port(), "publish:live/lossy:alice:" + token("lossy"), ALICE_PASSPHRASE, 16)
                    + "&latency=300000&linger=2";
            Path log = Files.createTempFile("tern-srt-ffmpeg", ".log");
            Process ffmpeg = Peers.start(publish(url, 7), log);
            try {
                String instance = origin.awaitStream("lossy", 20_000);
                Peers.Result published = Peers.finish(ffmpeg, log, Duration.ofSeconds(40));
                assertThat(published.exitCode()).as(published.output()).isZero();
                StreamSnapshot s = awaitEnded("lossy");
                assertThat(s.srt().latencyMs()).isEqualTo(300);
                assertThat(s.srt().packetsLost())
                        .as("the proxy dropped packets")
                        .isGreaterThan(10);
                assertThat(s.srt().packetsRetransmitted())
                        .isGreaterThanOrEqualTo(s.srt().packetsLost());
                assertThat(s.srt().packetsDroppedTooLate()).isZero();
                assertThat(s.srt().tsContinuityErrors()).isZero();
                assertThat(proxy.lost).isGreaterThan(20);
                Peers.Result decoded = Peers.decode(origin.url("/live/lossy/" + instance + "/video.m3u8"), 6);
                assertThat(decoded.lines())
                        .as("ffmpeg's errors decoding the HLS")
                        .isEmpty();
            } finally {
                ffmpeg.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }

    /**
     * With {@code --on-publish}, a slow hook's answer is awaited across the publisher's repeated
     * handshakes (pending decisions): libsrt's caller connects once the hook allows, and is refused
     * as unauthorized when it does not.
     */
    @Test
    void theOnPublishHookDecidesSrtPublishesAsItsAnswerArrives() throws Exception {
        origin.close();
        com.sun.net.httpserver.HttpServer hook =
                com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            try {
                Thread.sleep(600); // a slow authorisation service: longer than two handshake repetitions
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(
                    body.contains("\"protocol\":\"srt\"") && body.contains("\"name\":\"hooked\"") ? 204 : 403, -1);
            exchange.close();
        });
        hook.start();
        try {
            origin = new OriginFixture(
                    List.of(),
                    "no-publish-auth",
                    "on-publish=http://127.0.0.1:" + hook.getAddress().getPort() + "/hook");
            int port = origin.server.srtAddress().getPort();
            Peers.Result denied = Peers.run(
                    publish("srt://127.0.0.1:" + port + "?streamid=publish:live/denied", 2), Duration.ofSeconds(30));
            assertThat(denied.exitCode()).as(denied.output()).isNotZero();
            assertThat(origin.server.registry().lookup("denied")).isNull();
            Path log = Files.createTempFile("tern-srt-ffmpeg", ".log");
            Process ffmpeg = Peers.start(publish("srt://127.0.0.1:" + port + "?streamid=publish:live/hooked", 4), log);
            try {
                origin.awaitStream("hooked", 20_000);
                assertThat(origin.server
                                .registry()
                                .snapshot("hooked")
                                .get(5, TimeUnit.SECONDS)
                                .protocol())
                        .isEqualTo("srt");
                assertThat(Peers.finish(ffmpeg, log, Duration.ofSeconds(30)).exitCode())
                        .as(Files.readString(log))
                        .isZero();
            } finally {
                ffmpeg.destroyForcibly();
                Files.deleteIfExists(log);
            }
        } finally {
            hook.stop(0);
        }
    }

    private StreamSnapshot awaitEnded(String name) throws Exception {
        return Await.awaitValue(
                "the SRT publisher's end reached the stream", Duration.ofSeconds(15), Duration.ofMillis(100), () -> {
                    StreamSnapshot s = origin.server.registry().snapshot(name).get(5, TimeUnit.SECONDS);
                    return s.live() ? null : s;
                });
    }
}
