package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.record.RecordingFile;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.harness.HlsParser;
import io.tern.server.origin.harness.Json;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.registry.StreamSnapshot;
import io.tern.testkit.Await;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two independent publishers at once, ffmpeg (720p30, the stream) and GStreamer's
 * rtmp2sink (360p30), on a recording origin whose file sets per-stream settings: a third publisher
 * on a live name is refused; ffmpeg and ffprobe read back the live HLS of both and the recordings,
 * without one error line, with the durations, timestamps and audio/video alignment checked;
 * hls-parser parses every playlist variant; the stream's snapshot and the Prometheus metrics say
 * what happened.
 */
class PublishersAndRecordingTest {
    private static final int FFMPEG_SECONDS = 14;
    private static final int GST_SECONDS = 10;

    private Path recordings;
    private OriginFixture origin;

    @BeforeEach
    void start() throws Exception {
        FfmpegPublisher.require();
        Peers.requireFfprobe();
        Peers.requireGstreamer();
        HlsParser.require();
        recordings = Files.createTempDirectory("tern-recordings");
        origin = new OriginFixture(
                List.of(
                        "record-dir = " + recordings,
                        "record-rotate = 5s",
                        "[stream cam1]",
                        "segment-target-ms = 1000", // TARGETDURATION 1: a 14 s stream has segments to skip
                        "[stream cam2]",
                        "renditions = separate", // cam1 is muxed (the default), cam2 decoded per rendition
                        "[stream unrecorded]",
                        "record = off"),
                "no-publish-auth",
                "prometheus",
                "prometheus-port=" + Harness.freePort());
    }

    @AfterEach
    void stop() throws Exception {
        if (origin != null) {
            origin.close();
        }
        Harness.deleteTree(recordings);
    }

    @Test
    void twoPublishersAreServedLiveAndRecordedAndAThirdIsRefused() throws Exception {
        Path gstLog = Files.createTempFile("tern-gst", ".log");
        try (FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), FFMPEG_SECONDS)) {
            Process gst = Peers.start(Peers.gstreamerPublish(origin.rtmpUrl("cam2"), GST_SECONDS), gstLog);
            String cam1 = origin.awaitStream("cam1", 20_000);
            String cam2 = origin.awaitStream("cam2", 20_000);

            Peers.Result refused =
                    Peers.run(FfmpegPublisher.command(origin.rtmpUrl("cam1"), "flv", 2), Duration.ofSeconds(30));
            assertThat(refused.exitCode())
                    .as("a second publisher of a live stream fails")
                    .isNotZero();
            assertThat(refused.output()).contains("is already being published");

            assertThat(origin.get("/live/cam1/" + cam1 + "/video.m3u8").statusCode())
                    .isEqualTo(200); // a viewer
            assertSnapshot(origin.server.registry().snapshot("cam1").get(5, TimeUnit.SECONDS), 1280, 720, 1);
            assertSnapshot(origin.server.registry().snapshot("cam2").get(5, TimeUnit.SECONDS), 640, 360, 0);
            assertMetrics();
            awaitSkippableSegments(cam1);
            parseEveryPlaylistVariant(cam1);

            // Live: decoded without one error line, with both tracks, while they are published.
            Peers.Result decoded1 = Peers.decode(origin.playUrl("cam1"), 4);
            assertThat(decoded1.lines()).as("ffmpeg decoding cam1's LL-HLS").isEmpty();
            // GStreamer's live sources drop frames under load, so its frame times are uneven (two
            // frames 5 ms apart are seen): ffmpeg's null muxer, which counts in 1/frame-rate, then
            // reports two frames in one tick. That line is ffmpeg's, not a decoding error, so it is
            // the one line let through here; the served decode times are checked to rise instead.
            for (String rendition : List.of("video", "audio")) {
                String url = origin.url("/live/cam2/" + cam2 + "/" + rendition + ".m3u8");
                List<String> errors = Peers.decode(url, 4).lines().stream()
                        .filter(l -> !l.contains("non monotonically increasing dts to muxer"))
                        .toList();
                assertThat(errors)
                        .as("ffmpeg decoding cam2's %s rendition", rendition)
                        .isEmpty();
                assertRising(Peers.decodeTimes(url), "cam2 " + rendition);
            }
            assertRising(Peers.decodeTimes(origin.url("/live/cam1/" + cam1 + "/video.m3u8")), "cam1 video");
            String probe1 = Peers.probe(origin.playUrl("cam1")).output();
            assertThat(probe1)
                    .contains("codec_name=h264")
                    .contains("width=1280|height=720")
                    .contains("codec_name=aac");
            assertThat(Peers.probe(origin.playUrl("cam2")).output()).contains("width=640|height=360");
            assertLiveTracksAligned(origin.playUrl("cam1"));

            assertThat(ffmpeg.awaitExit(60_000)).as("ffmpeg: %s", ffmpeg.log()).isZero();
            assertThat(Peers.finish(gst, gstLog, Duration.ofSeconds(60)).exitCode())
                    .isZero();
            awaitRecordingsClosed();
            assertThat(origin.get("/live/cam2/" + cam2 + "/video.m3u8").body()).contains("#EXT-X-ENDLIST");
        } finally {
            Files.deleteIfExists(gstLog);
        }

        Map<String, List<RecordingFile>> byStream = new HashMap<>();
        for (RecordingFile f : origin.server.recordingWriter().store().list()) {
            byStream.computeIfAbsent(f.stream(), k -> new java.util.ArrayList<>())
                    .add(f);
        }
        assertThat(byStream.keySet()).containsExactlyInAnyOrder("cam1", "cam2");
        assertThat(byStream.get("cam1")).as("14 s rotated every 5 s").hasSizeGreaterThanOrEqualTo(2);
        List<RecordingFile> cam1Files = new java.util.ArrayList<>(byStream.get("cam1"));
        cam1Files.sort(java.util.Comparator.comparingLong(RecordingFile::startEpochMs));
        double cam1Seconds = 0;
        double previousEnd = -1;
        for (RecordingFile f : cam1Files) {
            double[] span = assertRecordingPlays(recordings.resolve(f.path()), 1280);
            if (previousEnd >= 0) {
                assertThat(span[0])
                        .as("%s starts where the file before ended", f.path())
                        .isCloseTo(previousEnd, org.assertj.core.data.Offset.offset(0.05));
            }
            previousEnd = span[1];
            cam1Seconds += span[1] - span[0];
        }
        // GStreamer's stream is recorded too: each file decodes cleanly and has its video. Its
        // audio is only required somewhere: under load GStreamer drops video frames (not audio)
        // and starts with bunched audio times, which the packager turns into discontinuities, and
        // a file can then start where the audio has nothing (seen once: a 1 s file of video only).
        boolean cam2Audio = false;
        for (RecordingFile f : byStream.get("cam2")) {
            Path file = recordings.resolve(f.path());
            assertThat(Peers.decode(file.toString(), 0).lines())
                    .as("decoding %s", file)
                    .isEmpty();
            String probe = Peers.probe(file.toString()).output();
            assertThat(probe).as("%s", file).contains("codec_name=h264").contains("width=640");
            cam2Audio |= probe.contains("codec_name=aac");
        }
        assertThat(cam2Audio).as("cam2's recording has its audio").isTrue();
    }

    private static void assertRising(List<Double> dts, String what) {
        assertThat(dts).as(what).hasSizeGreaterThan(10);
        for (int i = 1; i < dts.size(); i++) {
            assertThat(dts.get(i))
                    .as("%s decode time %d after %s", what, i, dts.get(i - 1))
                    .isGreaterThan(dts.get(i - 1));
        }
    }

    /** The live presentation's audio and video start together (within 100 ms). */
    private void assertLiveTracksAligned(String url) throws Exception {
        Map<String, Double> start = startTimes(Peers.probe(url).output());
        assertThat(start).containsKeys("video", "audio");
        assertThat(Math.abs(start.get("video") - start.get("audio")))
                .as("A/V start %s", start)
                .isLessThan(0.1);
    }

    /**
     * ffprobe and a full ffmpeg decode of one recording: clean, both tracks, aligned. Returns its
     * span on the stream's timeline, {start, end} in seconds (a file after the first starts where
     * the one before ended, and ffprobe's durations count from the timeline's 0).
     */
    private double[] assertRecordingPlays(Path file, int width) throws Exception {
        Peers.Result decode = Peers.decode(file.toString(), 0);
        assertThat(decode.lines()).as("decoding %s", file).isEmpty();
        String probe = Peers.probe(file.toString()).output();
        assertThat(probe)
                .as("%s", file)
                .contains("codec_name=h264")
                .contains("width=" + width)
                .contains("codec_name=aac");
        Map<String, Double> start = startTimes(probe);
        Map<String, Double> end = durations(probe);
        assertThat(Math.abs(start.get("video") - start.get("audio")))
                .as("A/V start in %s: %s", file, probe)
                .isLessThan(0.1);
        assertThat(Math.abs(end.get("video") - end.get("audio")))
                .as("A/V end in %s: %s", file, probe)
                .isLessThan(0.15);
        return new double[] {
            Math.min(start.get("video"), start.get("audio")), Math.max(end.get("video"), end.get("audio"))
        };
    }

    private static Map<String, Double> startTimes(String probe) {
        return field(probe, "start_time");
    }

    private static Map<String, Double> durations(String probe) {
        return field(probe, "duration");
    }

    /** {@code codec_type -> field} for each stream line of ffprobe's compact output. */
    private static Map<String, Double> field(String probe, String name) {
        Map<String, Double> out = new HashMap<>();
        for (String line : probe.lines().toList()) {
            if (!line.startsWith("stream|")) {
                continue;
            }
            Matcher type = Pattern.compile("codec_type=(\\w+)").matcher(line);
            Matcher value = Pattern.compile("\\|" + name + "=([0-9.]+)").matcher(line);
            if (type.find() && value.find()) {
                out.putIfAbsent(type.group(1), Double.parseDouble(value.group(1)));
            }
        }
        return out;
    }

    /** Full, delta (YES and v2), blocked and multivariant playlists, all through hls-parser's strict mode. */
    private void parseEveryPlaylistVariant(String instance) throws Exception {
        String media = "/live/cam1/" + instance + "/video.m3u8";
        try (HlsParser parser = HlsParser.start()) {
            HlsParser.Result multivariant =
                    parser.parse(origin.get(origin.playUrl("cam1")).body());
            assertThat(multivariant.ok()).as(multivariant.error()).isTrue();
            assertThat(Json.at(multivariant.playlist(), "variants", 0, "codecs"))
                    .isEqualTo("avc1.64001f,mp4a.40.2");

            HlsParser.Result full = parser.parse(origin.get(media).body());
            assertThat(full.ok()).as(full.error()).isTrue();
            assertThat(Json.at(full.playlist(), "lowLatencyCompatibility", "canBlockReload"))
                    .isEqualTo(true);
            Map<String, Object> lastSegment = last(Json.list(full.playlist(), "segments"));
            double msn = ((Number) Json.at(full.playlist(), "mediaSequenceBase")).doubleValue()
                    + Json.list(full.playlist(), "segments").size()
                    - 1;
            int parts = Json.list(lastSegment, "parts").size();

            HlsParser.Result blocked =
                    parser.parse(origin.get(media + "?_HLS_msn=" + (long) msn + "&_HLS_part=" + parts)
                            .body());
            assertThat(blocked.ok()).as(blocked.error()).isTrue();

            for (String skip : List.of("YES", "v2")) {
                HttpResponse<String> delta = origin.get(media + "?_HLS_skip=" + skip);
                HlsParser.Result parsed = parser.parse(delta.body());
                assertThat(parsed.ok()).as(parsed.error()).isTrue();
                assertThat(delta.body()).contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=");
                assertThat(((Number) parsed.playlist().get("skip")).intValue())
                        .as("_HLS_skip=" + skip)
                        .isPositive();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> last(List<Object> list) {
        return (Map<String, Object>) list.get(list.size() - 1);
    }

    private static void assertSnapshot(StreamSnapshot s, int width, int height, int minViewers) {
        assertThat(s.live()).isTrue();
        assertThat(s.protocol()).isEqualTo("rtmp");
        assertThat(s.publisher()).startsWith("127.0.0.1:");
        assertThat(s.video().width()).isEqualTo(width);
        assertThat(s.video().height()).isEqualTo(height);
        assertThat(s.video().codecs()).startsWith("avc1.");
        assertThat(s.audio().sampleRateHz()).isEqualTo(48_000);
        assertThat(s.ingestBitsPerSecond()).isGreaterThan(100_000);
        assertThat(s.parts()).isPositive();
        assertThat(s.segments()).isPositive();
        assertThat(s.viewers()).as("this test read its media playlists").isGreaterThanOrEqualTo(minViewers);
        assertThat(s.recording()).isNotNull();
        assertThat(s.recording().file()).startsWith(s.name() + "/");
        assertThat(s.uptimeMs()).isPositive();
    }

    private void assertMetrics() throws Exception {
        String metrics = origin.get("http://127.0.0.1:" + origin.server.metricsPort() + "/metrics")
                .body();
        assertThat(metrics)
                .contains("tern_origin_publishers 2.0")
                .contains("tern_origin_streams 2.0")
                .contains("tern_origin_errors_total{cause=\"publish_already_live\"} 1.0")
                .contains("tern_origin_ingest_bytes_total")
                .contains("tern_origin_parts_total")
                .contains("tern_origin_served_responses_total{kind=\"multivariant\"}")
                .contains("tern_origin_recording_bytes_total")
                .contains("tern_http_responses_total{kind=\"playlist\",status=\"200\"}")
                .doesNotContain("cam1");
        assertThat(origin.server.counters().errors(Cause.PUBLISH_ALREADY_LIVE)).isEqualTo(1);
    }

    /** Waits (bounded) until cam1 has segments older than CAN-SKIP-UNTIL (6 s), so a delta update skips some. */
    private void awaitSkippableSegments(String instance) throws Exception {
        Await.await(
                "a delta update skipping a segment",
                Duration.ofSeconds(15),
                Duration.ofMillis(250),
                () -> origin.get("/live/cam1/" + instance + "/video.m3u8?_HLS_skip=YES")
                        .body()
                        .contains("#EXT-X-SKIP"));
    }

    /** Waits (bounded) until both publishers' ends reached the recordings and the writer is idle. */
    private void awaitRecordingsClosed() throws Exception {
        Await.await("recordings closed", Duration.ofSeconds(20), Duration.ofMillis(100), () -> {
            boolean open = false;
            for (StreamSnapshot s : origin.server.registry().snapshots().get(5, TimeUnit.SECONDS)) {
                open |= s.live() || (s.recording() != null && s.recording().file() != null);
            }
            return !open && origin.server.recordingWriter().queuedBytes() == 0;
        });
        // The writer thread closes the last file after its queue empties, and shows nothing
        // a test could poll for: a grace period, not a wait for a condition.
        Thread.sleep(200);
    }
}
