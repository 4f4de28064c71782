package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.AccessUnit;
import io.tern.netty.NettyTransports;
import io.tern.netty.rtmp.RtmpPushClient;
import io.tern.rtmp.chunk.MessageType;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input to a running origin, over real sockets, while a good publisher streams on the same
 * origin: garbage and an Enhanced RTMP (HEVC) publisher are closed (counted as abnormal), a publisher
 * that vanishes mid-part ends its stream cleanly (the held hinted part is answered, the playlist
 * ends), and timestamps that jump or go back give {@code EXT-X-DISCONTINUITY} and fragments that
 * still parse. Throughout, the good stream keeps producing parts that viewers can fetch. (The
 * engine-level cases, malformed chunks and unknown commands, are in tern-rtmp's
 * BadInputSessionTest; the truncated handshake and a huge chunk size in tern-netty's
 * BadInputSocketTest.)
 */
class OriginBadInputTest {
    private OriginFixture origin;
    private EventLoopGroup group;
    private RtmpPushClient good;
    private Thread goodSource;
    private final AtomicBoolean streaming = new AtomicBoolean(true);

    @BeforeEach
    void start() throws Exception {
        origin = new OriginFixture("no-publish-auth");
        group = NettyTransports.newGroup(1, "bad-input-test");
        good = publisher("good");
        goodSource = new Thread(() -> sendInRealTime(good, media(0, 120_000)), "good-publisher");
        goodSource.setDaemon(true);
        goodSource.start();
        origin.awaitStream("good", 20_000);
    }

    @AfterEach
    void stop() throws Exception {
        streaming.set(false);
        goodSource.join(5000);
        good.close();
        origin.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    @Test
    void garbageAndAnUnsupportedCodecAreClosedAndCountedWhileTheGoodStreamServes() throws Exception {
        long msnBefore = lastMsn("good");
        long abnormalBefore = origin.server.counters().errors(Cause.INGEST_ABNORMAL_CLOSE);
        try (Socket socket = connect()) {
            byte[] garbage = new byte[1000];
            new SplittableRandom(3).nextBytes(garbage);
            garbage[0] = (byte) 0xA5;
            socket.getOutputStream().write(garbage);
            awaitClose(socket);
        }
        RtmpPushClient hevc = publisher("hevc");
        byte[] enhancedRtmpHevc = {(byte) 0x90, 'h', 'v', 'c', '1'};
        hevc.sendTag(MessageType.VIDEO, 0, enhancedRtmpHevc);
        hevc.closed().get(10, TimeUnit.SECONDS);
        awaitCount(Cause.INGEST_ABNORMAL_CLOSE, abnormalBefore + 2);
        assertGoodStreamGoesOn(msnBefore);
    }

    @Test
    void aPublisherThatVanishesMidPartEndsItsStreamCleanly() throws Exception {
        long msnBefore = lastMsn("good");
        RtmpPushClient gone = publisher("gone");
        sendInRealTime(gone, media(0, 2600)); // 2.6 s: the second segment's fourth part is open
        String instance = origin.awaitStream("gone", 10_000);
        String base = "/live/gone/" + instance + "/";
        M3u8 live = M3u8.parse(origin.get(base + "video.m3u8").body());
        assertThat(live.preloadHints).hasSize(1);
        CompletableFuture<HttpResponse<byte[]>> hinted = origin.http.sendAsync(
                HttpRequest.newBuilder(URI.create(
                                origin.url(base + live.preloadHints.get(0).get("URI"))))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        awaitHeld();

        gone.close(); // no FCUnpublish, no deleteStream: the TCP connection just ends
        gone.closed().get(10, TimeUnit.SECONDS);

        HttpResponse<byte[]> part = hinted.get(10, TimeUnit.SECONDS);
        assertThat(part.statusCode()).as("the held hinted part is answered").isEqualTo(200);
        assertThat(part.body()).as("with the frames the publisher sent").isNotEmpty();
        M3u8 ended = awaitEnded(base + "video.m3u8");
        assertThat(ended.preloadHints).isEmpty();
        M3u8.Seg last = ended.segments.get(ended.segments.size() - 1);
        byte[] init = origin.getBytes(base + ended.maps.get(0)).body();
        for (M3u8.PartTag p : last.parts) {
            HttpResponse<byte[]> r = origin.getBytes(base + p.uri());
            assertThat(r.statusCode()).as(p.uri()).isEqualTo(200);
            assertThat(Mp4Reader.read(concat(init, r.body())).fragments)
                    .as("%s parses (one fragment per chunk written)", p.uri())
                    .isNotEmpty();
        }
        assertGoodStreamGoesOn(msnBefore);
    }

    @Test
    void timestampsThatJumpOrGoBackGiveADiscontinuityNotABrokenFragment() throws Exception {
        long msnBefore = lastMsn("good");
        long jumpsBefore = origin.server.counters().errors(Cause.TIMESTAMP_DISCONTINUITY);
        RtmpPushClient jumpy = publisher("jumpy");
        List<AccessUnit> first = media(0, 3000);
        List<AccessUnit> ahead = shifted(media(3000, 3000), 30_000); // 30 s forward, past the 10 s gap bound
        List<AccessUnit> back = shifted(media(6000, 3000), 4000); // then from 36 s back to 10 s
        sendInRealTime(jumpy, concatenated(first, ahead, back));
        String instance = origin.awaitStream("jumpy", 10_000);
        String base = "/live/jumpy/" + instance + "/";
        awaitCount(Cause.TIMESTAMP_DISCONTINUITY, jumpsBefore + 2);

        // One rendition (muxed, the default) carries both tracks: each track's decode times rise.
        M3u8 playlist = M3u8.parse(origin.get(base + "video.m3u8").body());
        long cuts = playlist.segments.stream().filter(s -> s.discontinuity).count();
        assertThat(cuts).as("a discontinuity at the jump and at the step back").isEqualTo(2);
        byte[] init = origin.getBytes(base + playlist.maps.get(0)).body();
        for (M3u8.Seg segment : playlist.segments) {
            if (segment.uri == null) {
                continue;
            }
            Mp4Reader read = Mp4Reader.read(
                    concat(init, origin.getBytes(base + segment.uri).body()));
            assertThat(read.fragments).as(segment.uri).isNotEmpty();
            assertThat(read.tracks).as("%s: video and audio", segment.uri).hasSize(2);
            for (int track : read.tracks.keySet()) {
                long previous = Long.MIN_VALUE;
                for (Mp4Reader.Sample s : read.samples(track)) {
                    assertThat(s.dts())
                            .as("%s track %d: decode times rise within a segment", segment.uri, track)
                            .isGreaterThan(previous);
                    previous = s.dts();
                }
            }
        }
        assertGoodStreamGoesOn(msnBefore);
    }

    private RtmpPushClient publisher(String name) throws Exception {
        RtmpPushClient client = RtmpPushClient.connect(
                group, URI.create(origin.rtmpUrl(name)), RtmpSettings.defaults(), HandshakeScheme.DIGEST_OFFSET_8);
        client.published().get(10, TimeUnit.SECONDS);
        client.sendConfig(TestMedia.avc720p(), 0);
        client.sendConfig(TestMedia.aac48k(), 0);
        return client;
    }

    private static List<AccessUnit> media(long fromMs, long durationMs) {
        SyntheticStream stream = new SyntheticStream();
        stream.millisecondTimestamps = true;
        return stream.generate(fromMs, durationMs);
    }

    private static List<AccessUnit> shifted(List<AccessUnit> units, long byMs) {
        return units.stream()
                .map(u -> new AccessUnit(u.track(), u.dts() + byMs * 90, u.pts() + byMs * 90, u.keyframe(), u.data()))
                .toList();
    }

    @SafeVarargs
    private static List<AccessUnit> concatenated(List<AccessUnit>... parts) {
        return Arrays.stream(parts).flatMap(List::stream).toList();
    }

    /** Sends each frame when its turn comes in sending order (the source is a live camera). */
    private void sendInRealTime(RtmpPushClient client, List<AccessUnit> units) {
        long startNs = System.nanoTime();
        long elapsedMediaMs = 0;
        long previousMs = units.isEmpty() ? 0 : units.get(0).dts() / 90;
        for (AccessUnit unit : units) {
            if (!streaming.get()) {
                return;
            }
            long ms = unit.dts() / 90;
            elapsedMediaMs += Math.max(0, Math.min(100, ms - previousMs)); // a timestamp jump takes no time
            previousMs = ms;
            long waitMs = elapsedMediaMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            if (waitMs > 0) {
                try {
                    Thread.sleep(waitMs); // pacing a live source, not waiting for a timer
                } catch (InterruptedException e) {
                    return;
                }
            }
            client.sendAccessUnit(unit);
        }
    }

    private long lastMsn(String name) throws Exception {
        String instance = origin.awaitStream(name, 10_000);
        M3u8 playlist = M3u8.parse(
                origin.get("/live/" + name + "/" + instance + "/video.m3u8").body());
        return playlist.segments.get(playlist.segments.size() - 1).msn;
    }

    /** The good stream moved on by at least one segment, and its newest part can be fetched. */
    private void assertGoodStreamGoesOn(long msnBefore) throws Exception {
        String instance = origin.awaitStream("good", 10_000);
        String base = "/live/good/" + instance + "/";
        String playlistUrl = base + "video.m3u8?_HLS_msn=" + (msnBefore + 1) + "&_HLS_part=0";
        HttpResponse<String> blocked = origin.get(playlistUrl);
        assertThat(blocked.statusCode()).as("good stream: %s", blocked.body()).isEqualTo(200);
        M3u8 playlist = M3u8.parse(blocked.body());
        assertThat(playlist.endList).isFalse();
        M3u8.Seg last = playlist.segments.get(playlist.segments.size() - 1);
        assertThat(last.msn).as("the good stream moved on").isGreaterThan(msnBefore);
        String part = last.parts.get(last.parts.size() - 1).uri();
        assertThat(origin.getBytes(base + part).statusCode()).isEqualTo(200);
        assertThat(good.closed()).as("the good publisher is still connected").isNotDone();
    }

    private void awaitCount(Cause cause, long atLeast) throws Exception {
        Await.await(
                cause + " counted",
                Duration.ofSeconds(10),
                () -> origin.server.counters().errors(cause) >= atLeast);
        assertThat(origin.server.counters().errors(cause))
                .as("%s counted", cause)
                .isGreaterThanOrEqualTo(atLeast);
    }

    private void awaitHeld() throws Exception {
        Await.await(
                "the hinted part's request held",
                Duration.ofSeconds(10),
                () -> origin.server.counters().heldNow() >= 1);
        assertThat(origin.server.counters().heldNow())
                .as("the hinted part's request is held")
                .isEqualTo(1);
    }

    private M3u8 awaitEnded(String path) throws Exception {
        M3u8 playlist = Await.awaitValue(
                "EXT-X-ENDLIST once the publisher vanished", Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
                    M3u8 p = M3u8.parse(origin.get(path).body());
                    return p.endList ? p : null;
                });
        assertThat(playlist.endList)
                .as("EXT-X-ENDLIST once the publisher vanished")
                .isTrue();
        return playlist;
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(origin.server.rtmpAddress(), 5000);
        return socket;
    }

    /** Waits (bounded) until the origin closes {@code socket}. */
    private static void awaitClose(Socket socket) throws IOException {
        socket.setSoTimeout(5000);
        try {
            socket.getInputStream().transferTo(OutputStream.nullOutputStream());
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the origin did not close the connection within 5 s");
        } catch (IOException reset) {
            // a reset is a close too
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
