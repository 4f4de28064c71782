package io.tern.netty.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.tern.media.AccessUnit;
import io.tern.netty.NettyTransports;
import io.tern.srt.SrtCaller;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtSettings;
import io.tern.srt.StreamAuthorizer;
import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tern's SRT listener and caller against libsrt 1.5's own tools: ffmpeg publishing encrypted
 * MPEG-TS, srt-live-transmit sending and receiving, refusals, and recovery through a lossy link.
 */
class SrtInteropTest {
    static final String PASS = "tern-stream-passphrase";
    static final String ALICE = "alice-own-passphrase";

    @TempDir
    static Path dir;

    static Path fixture;
    static int videoFrames;
    static int audioFrames;
    static EventLoopGroup group;

    @BeforeAll
    static void setUp() throws Exception {
        SrtPeers.requireAll();
        fixture = SrtPeers.fixture();
        List<SrtPeers.Packet> probed = SrtPeers.probe(fixture);
        videoFrames = (int) probed.stream().filter(p -> p.stream() == 0).count();
        audioFrames = (int) probed.stream().filter(p -> p.stream() == 1).count();
        group = NettyTransports.newGroup(1, "srt-test");
    }

    @AfterAll
    static void tearDown() {
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** live/plain* streams are open, u=alice has her own passphrase, the rest use PASS. */
    static StreamAuthorizer.Decision authorize(StreamId id, InetSocketAddress peer) {
        if (!id.resource().startsWith("live/") || id.mode() != StreamId.Mode.PUBLISH) {
            return StreamAuthorizer.Decision.reject(RejectReason.X_FORBIDDEN);
        }
        if (id.resource().startsWith("live/plain")) {
            return StreamAuthorizer.Decision.accept(null);
        }
        return StreamAuthorizer.Decision.accept("alice".equals(id.user()) ? ALICE : PASS);
    }

    static SrtServer server(IngestRecorder rec, int latencyMs) throws Exception {
        return SrtServer.start(
                group,
                new InetSocketAddress("127.0.0.1", 0),
                SrtSettings.defaults().withLatencyMs(latencyMs),
                new DemuxingIngest(rec));
    }

    /**
     * libsrt closes a live socket with linger 0 and drops what it has not sent yet; {@code linger=2}
     * lets ffmpeg finish the stream, so every frame of the file can be counted at the far end.
     */
    static SrtPeers.Result ffmpegPublish(int port, String query) throws Exception {
        return ffmpegPublishTo(fixture, port, query);
    }

    static SrtPeers.Result ffmpegPublishTo(Path fixture, int port, String query) throws Exception {
        return SrtPeers.run(
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-re",
                        "-i",
                        fixture.toString(),
                        "-c",
                        "copy",
                        "-f",
                        "mpegts",
                        "srt://127.0.0.1:" + port + "?linger=2&" + query),
                60);
    }

    static IngestRecorder.Ended assertComplete(IngestRecorder rec, String resource) throws Exception {
        IngestRecorder.Stream s = rec.started(resource).get(10, TimeUnit.SECONDS);
        IngestRecorder.Ended end = s.ended.get(15, TimeUnit.SECONDS);
        assertThat(end.ts().continuityErrors())
                .as("TS continuity errors; %s", end.srt())
                .isZero();
        assertThat(end.ts().errors()).as("%s", end.ts()).isZero();
        assertThat(end.srt().packetsDroppedTooLate()).as("%s", end.srt()).isZero();
        assertThat(end.srt().packetsMissingAtClose()).as("%s", end.srt()).isZero();
        assertThat(s.video).hasSize(videoFrames);
        assertThat(s.audio).hasSize(audioFrames);
        assertThat(s.videoConfig.width()).isEqualTo(1280);
        assertThat(s.videoConfig.height()).isEqualTo(720);
        assertThat(s.audioConfig.sampleRateHz()).isEqualTo(48000);
        assertThat(s.video.get(0).keyframe()).isTrue();
        assertMonotonic(s.video);
        assertMonotonic(s.audio);
        return end;
    }

    static void assertMonotonic(List<AccessUnit> units) {
        for (int i = 1; i < units.size(); i++) {
            assertThat(units.get(i).dts()).isGreaterThan(units.get(i - 1).dts());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 24, 32})
    void ffmpegPublishesEncryptedWithEachKeyLength(int pbkeylen) throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = server(rec, 120)) {
            String name = "live/key" + pbkeylen;
            SrtPeers.Result r = ffmpegPublish(
                    server.port(), "streamid=publish:" + name + "&passphrase=" + PASS + "&pbkeylen=" + pbkeylen);
            assertThat(r.exit()).as(r.output()).isZero();
            IngestRecorder.Ended end = assertComplete(rec, name);
            assertThat(end.reason()).isEqualTo(SrtEvent.CloseReason.PEER_SHUTDOWN);
            assertThat(end.srt().packetsUndecryptable()).isZero();
        }
    }

    /** libsrt's sender switches keys every 500 packets here (KMREQ in-stream, even/odd). */
    @Test
    void ffmpegsKeyRefreshIsFollowed() throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = server(rec, 120)) {
            SrtPeers.Result r = ffmpegPublish(
                    server.port(),
                    "streamid=publish:live/refresh&passphrase=" + PASS
                            + "&pbkeylen=24&kmrefreshrate=500&kmpreannounce=100");
            assertThat(r.exit()).as(r.output()).isZero();
            IngestRecorder.Ended end = assertComplete(rec, "live/refresh");
            assertThat(end.srt().packetsReceived())
                    .as("at least two refresh periods")
                    .isGreaterThan(1000);
            assertThat(end.srt().packetsUndecryptable()).isZero();
        }
    }

    @Test
    void wrongAndMissingPassphrasesAreRefusedAtTheHandshake() throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = server(rec, 120)) {
            SrtPeers.Result wrong = ffmpegPublish(
                    server.port(), "streamid=publish:live/guarded&passphrase=not-the-right-one&pbkeylen=16");
            SrtPeers.Result missing = ffmpegPublish(server.port(), "streamid=publish:live/guarded");
            assertThat(wrong.exit()).as(wrong.output()).isNotZero();
            assertThat(missing.exit()).as(missing.output()).isNotZero();
            assertThat(rec.refusals)
                    .extracting(IngestRecorder.Refusal::code)
                    .contains(RejectReason.BADSECRET, RejectReason.UNSECURE);
            assertThat(rec.byName).isEmpty();
            assertThat(server.engineCounts().get()[0]).isZero();
        }
    }

    @Test
    void srtLiveTransmitPublishesWithAPerUserPassphrase() throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = server(rec, 120)) {
            String uri = "srt://127.0.0.1:" + server.port()
                    + "?linger=2&streamid=#!::r=live/slt,m=publish,u=alice&passphrase=" + ALICE;
            // srt-live-transmit reads stdin in 1316-byte chunks and drops a short last chunk, so the
            // file is followed by null TS packets: what it drops then is padding, not media.
            Path nulls = dir.resolve("nulls.ts");
            byte[] pad = new byte[188 * 70];
            for (int i = 0; i < pad.length; i += 188) {
                java.util.Arrays.fill(pad, i, i + 188, (byte) 0xFF);
                pad[i] = 0x47;
                pad[i + 1] = 0x1F;
                pad[i + 3] = 0x10;
            }
            Files.write(nulls, pad);
            // It does not exit at the end of its input; -t bounds its run.
            SrtPeers.run(
                    List.of(
                            "bash",
                            "-c",
                            "(ffmpeg -hide_banner -loglevel error -re -i '" + fixture + "' -c copy -f mpegts -; cat '"
                                    + nulls + "') | srt-live-transmit -q -a:no -t:9 -chunk:1316 file://con '" + uri
                                    + "'"),
                    60);
            IngestRecorder.Stream s = rec.started("live/slt").get(5, TimeUnit.SECONDS);
            assertThat(s.id.user()).isEqualTo("alice");
            assertComplete(rec, "live/slt");
        }
    }

    @Test
    void srtLiveTransmitReceivesFromTernsCaller() throws Exception {
        int port;
        try (var probe = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path out = dir.resolve("received.ts");
        Process slt = new ProcessBuilder(
                        "srt-live-transmit",
                        "-q",
                        "-a:no",
                        "-t:30",
                        "srt://127.0.0.1:" + port + "?mode=listener&passphrase=" + PASS,
                        "file://con")
                .redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            byte[] ts = Files.readAllBytes(fixture);
            SrtPush push = null;
            for (int attempt = 0; attempt < 20 && push == null; attempt++) {
                SrtPush p = SrtPush.connect(
                        group,
                        new InetSocketAddress("127.0.0.1", port),
                        SrtSettings.defaults(),
                        SrtCaller.Options.of("tern-push", PASS, 32));
                if (p.outcome().get(5, TimeUnit.SECONDS) instanceof SrtEvent.Connected) {
                    push = p;
                } else {
                    p.close(); // srt-live-transmit not listening yet
                }
            }
            assertThat(push).as("connected to srt-live-transmit").isNotNull();
            // Real time: 4 s of media, paced as a live source would send it.
            int chunks = (ts.length + 1315) / 1316;
            long start = System.nanoTime();
            long intervalNs = 4_000_000_000L / chunks;
            for (int i = 0; i < chunks; i++) {
                int off = i * 1316;
                push.send(ts, off, Math.min(1316, ts.length - off));
                long due = start + (i + 1) * intervalNs;
                while (System.nanoTime() < due) {
                    Thread.onSpinWait();
                }
            }
            // A grace period for the last ACKs and retransmissions before close: nothing shows them
            // (srt-live-transmit buffers its file until it exits; the caller counts no unacknowledged).
            java.util.concurrent.locks.LockSupport.parkNanos(500_000_000L);
            assertThat(push.stats().get().packetsSent()).isEqualTo(chunks);
            push.close();
            assertThat(slt.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readAllBytes(out)).isEqualTo(ts);
        } finally {
            slt.destroyForcibly();
        }
    }

    /** The first 3 s of the 4 s stream suffer the loss; see {@link UdpImpairmentProxy#impairFor}. */
    @Test
    void everyPacketIsRecoveredThrough5PercentLossEachWay() throws Exception {
        lossyPublish(0.05, 300, "live/loss5");
    }

    @Test
    void everyPacketIsRecoveredThrough10PercentLossEachWay() throws Exception {
        lossyPublish(0.10, 500, "live/loss10");
    }

    private static void lossyPublish(double loss, int latencyMs, String name) throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = server(rec, latencyMs);
                var proxy = new UdpImpairmentProxy(
                                new InetSocketAddress("127.0.0.1", server.port()),
                                new UdpImpairmentProxy.Impairment(loss, 20_000_000L, 0, 0),
                                new UdpImpairmentProxy.Impairment(loss, 20_000_000L, 0, 0),
                                17)
                        .impairFor(3_000_000_000L)) {
            SrtPeers.Result r = ffmpegPublish(
                    proxy.port(),
                    "streamid=publish:" + name + "&passphrase=" + PASS + "&pbkeylen=16&latency=" + latencyMs * 1000);
            assertThat(r.exit()).as(r.output()).isZero();
            IngestRecorder.Ended end = assertComplete(rec, name);
            assertThat(end.srt().latencyMs()).isEqualTo(latencyMs);
            assertThat(end.srt().packetsLost()).as("the proxy did drop packets").isGreaterThan(20);
            assertThat(end.srt().packetsRetransmittedReceived())
                    .isGreaterThanOrEqualTo(end.srt().packetsLost());
            assertThat(proxy.lost).isGreaterThan(40);
        }
    }
}
