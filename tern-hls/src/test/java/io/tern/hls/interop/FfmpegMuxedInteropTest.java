package io.tern.hls.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.record.RecordingAction;
import io.tern.hls.record.StreamRecorder;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.media.TrackType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A muxed rendition ({@link RenditionMode#MUXED}) of ffmpeg's own media, read back by ffprobe
 * and ffmpeg: the init segment with its segments, the init segment with its parts, the HLS
 * presentation and the recording each have both streams, every frame that went in and the
 * durations of the source.
 */
class FfmpegMuxedInteropTest {
    private static final int SECONDS = 6;

    @TempDir
    static Path work;

    private static RealMedia media;
    private static Path out;
    private static Harness h;
    private static final Map<String, ByteArrayOutputStream> recordings = new LinkedHashMap<>();

    @BeforeAll
    static void packageRealMedia() throws Exception {
        Peers.requireFfmpeg();
        media = RealMedia.generate(work, SECONDS);
        h = new Harness(
                PackagerConfig.defaults("live1").withRenditions(RenditionMode.MUXED), StreamLayout.VIDEO_AND_AUDIO);
        h.configure(media.avc, media.aac);
        StreamRecorder recorder = new StreamRecorder("cam", StreamLayout.VIDEO_AND_AUDIO, 60_000);
        h.feed(media.interleaved());
        h.end();
        h.events.forEach(recorder::onEvent);
        for (RecordingAction a; (a = recorder.poll()) != null; ) {
            switch (a) {
                case RecordingAction.Open o ->
                    recordings
                            .computeIfAbsent(o.path(), p -> new ByteArrayOutputStream())
                            .writeBytes(o.initSegment());
                case RecordingAction.Append ap -> recordings.get(ap.path()).writeBytes(ap.bytes());
                case RecordingAction.Close c -> {}
            }
        }
        out = work.resolve("out");
        Path instance = Files.createDirectories(out.resolve("live1"));
        Files.write(
                out.resolve("index.m3u8"), ((PlaylistAnswer.Ready) h.packager.multivariantPlaylist(h.nowNs)).body());
        byte[] body = h.playlistBytes(TrackType.VIDEO, "");
        Files.write(instance.resolve("video.m3u8"), body);
        M3u8 p = M3u8.parse(body);
        byte[] init = h.bytes(p.maps.get(0));
        Files.write(instance.resolve(p.maps.get(0)), init);
        ByteArrayOutputStream segments = new ByteArrayOutputStream();
        segments.writeBytes(init);
        for (M3u8.Seg s : p.completeSegments()) {
            byte[] seg = h.bytes(s.uri);
            Files.write(instance.resolve(s.uri), seg);
            segments.writeBytes(seg);
        }
        Files.write(out.resolve("segments.mp4"), segments.toByteArray());
        ByteArrayOutputStream parts = new ByteArrayOutputStream();
        parts.writeBytes(init);
        List<M3u8.PartTag> listed = p.parts();
        for (M3u8.PartTag part : listed) {
            parts.writeBytes(h.bytes(part.uri()));
        }
        Files.write(out.resolve("parts.mp4"), parts.toByteArray());
        for (Map.Entry<String, ByteArrayOutputStream> r : recordings.entrySet()) {
            Path f = out.resolve("rec").resolve(r.getKey());
            Files.createDirectories(f.getParent());
            Files.write(f, r.getValue().toByteArray());
        }
    }

    /** codec_type, nb_read_frames, duration per stream, in file order. */
    private static List<String[]> streams(String file) throws IOException {
        Peers.Run run = Peers.run(
                out,
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-count_frames",
                        "-show_entries",
                        "stream=codec_type,codec_name,nb_read_frames,duration",
                        "-of",
                        "csv=p=0",
                        file));
        assertThat(run.err()).as("ffprobe errors reading " + file).isEmpty();
        List<String[]> streams = new ArrayList<>();
        run.out().lines().forEach(l -> streams.add(l.split(",")));
        return streams;
    }

    private static String[] stream(List<String[]> streams, String type) {
        return streams.stream().filter(s -> s[1].equals(type)).findFirst().orElseThrow();
    }

    @Test
    void theInitSegmentWithItsSegmentsHasBothStreamsWithEveryFrameAndTheSourceDurations() throws IOException {
        List<String[]> streams = streams("segments.mp4");
        assertThat(streams).hasSize(2);
        // codec_name,codec_type,duration,nb_read_frames
        String[] v = stream(streams, "video");
        String[] a = stream(streams, "audio");
        assertThat(v[0]).isEqualTo("h264");
        assertThat(a[0]).isEqualTo("aac");
        assertThat(Integer.parseInt(v[3])).isEqualTo(media.video.size());
        assertThat(Integer.parseInt(a[3])).isEqualTo(media.audio.size());
        assertThat(Double.parseDouble(v[2])).isCloseTo(SECONDS, Offset.offset(0.05));
        assertThat(Double.parseDouble(a[2])).isCloseTo(media.audio.size() * 1024 / 48_000.0, Offset.offset(0.05));
        assertDecodes("segments.mp4");
    }

    @Test
    void theInitSegmentWithItsListedPartsDecodesWithBothStreams() throws IOException {
        List<String[]> streams = streams("parts.mp4");
        assertThat(streams).hasSize(2);
        assertThat(Integer.parseInt(stream(streams, "video")[3])).isPositive();
        assertThat(Integer.parseInt(stream(streams, "audio")[3])).isPositive();
        assertDecodes("parts.mp4");
    }

    @Test
    void ffmpegPlaysTheHlsPresentationWithBothStreamsFromOneVariant() throws IOException {
        assertThat(Files.readString(out.resolve("index.m3u8"))).doesNotContain("EXT-X-MEDIA");
        Peers.Run run = Peers.run(
                out,
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-show_entries",
                        "stream=codec_type",
                        "-of",
                        "csv=p=0",
                        "index.m3u8"));
        assertThat(run.err()).isEmpty();
        assertThat(run.out().lines().toList()).contains("video", "audio");
        Peers.Run decode = Peers.run(
                out,
                List.of("ffmpeg", "-v", "error", "-i", "index.m3u8", "-map", "0:v", "-map", "0:a", "-f", "null", "-"));
        assertThat(decode.err()).as("ffmpeg errors").isEmpty();
        assertThat(decode.exit()).isZero();
    }

    @Test
    void theRecordingIsOnePlayableFileWithEveryFrameOfBothTracks() throws IOException {
        assertThat(recordings).hasSize(1);
        String file = "rec/" + recordings.keySet().iterator().next();
        List<String[]> streams = streams(file);
        assertThat(streams).hasSize(2);
        assertThat(Integer.parseInt(stream(streams, "video")[3])).isEqualTo(media.video.size());
        assertThat(Integer.parseInt(stream(streams, "audio")[3])).isEqualTo(media.audio.size());
        assertDecodes(file);
    }

    private static void assertDecodes(String file) throws IOException {
        Peers.Run decode = Peers.run(out, List.of("ffmpeg", "-v", "error", "-i", file, "-f", "null", "-"));
        assertThat(decode.err()).as("ffmpeg errors decoding " + file).isEmpty();
        assertThat(decode.exit()).isZero();
    }
}
