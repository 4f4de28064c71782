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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ffmpeg's own media through the packager and back into ffprobe and ffmpeg: each rendition's
 * init + segments, the HLS presentation itself (multivariant, media playlists, EXT-X-MAP) and
 * the recording decode without one error line, with the frame counts, durations and start
 * times that went in.
 */
class FfmpegInteropTest {
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
                PackagerConfig.defaults("live1").withRenditions(RenditionMode.SEPARATE), StreamLayout.VIDEO_AND_AUDIO);
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
        writeOut();
    }

    /** Everything the origin would serve for this stream, as files under {@code out/}. */
    private static void writeOut() throws IOException {
        Path instance = Files.createDirectories(out.resolve("live1"));
        Files.write(
                out.resolve("index.m3u8"), ((PlaylistAnswer.Ready) h.packager.multivariantPlaylist(h.nowNs)).body());
        for (TrackType t : TrackType.values()) {
            String name = t.name().toLowerCase();
            byte[] body = h.playlistBytes(t, "");
            Files.write(instance.resolve(name + ".m3u8"), body);
            M3u8 p = M3u8.parse(body);
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            for (String map : p.maps) {
                Files.write(instance.resolve(map), h.bytes(map));
            }
            whole.writeBytes(h.bytes(p.maps.get(0)));
            for (M3u8.Seg s : p.completeSegments()) {
                byte[] seg = h.bytes(s.uri);
                Files.write(instance.resolve(s.uri), seg);
                whole.writeBytes(seg);
            }
            Files.write(out.resolve(name + ".mp4"), whole.toByteArray());
        }
        for (Map.Entry<String, ByteArrayOutputStream> r : recordings.entrySet()) {
            Path f = out.resolve("rec").resolve(r.getKey());
            Files.createDirectories(f.getParent());
            Files.write(f, r.getValue().toByteArray());
        }
    }

    private static Peers.Run probe(String file, String entries) throws IOException {
        return Peers.run(
                out,
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-count_frames",
                        "-show_entries",
                        entries,
                        "-of",
                        "default=noprint_wrappers=1",
                        file));
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.putIfAbsent(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    @Test
    void theVideoRenditionDecodesWithEveryFrameAndItsStartTime() throws IOException {
        Peers.Run run = probe("video.mp4", "stream=codec_name,width,height,nb_read_frames,start_time,duration");
        assertThat(run.err()).as("ffprobe errors").isEmpty();
        Map<String, String> f = fields(run.out());
        assertThat(f.get("codec_name")).isEqualTo("h264");
        assertThat(f.get("width")).isEqualTo("1280");
        assertThat(f.get("height")).isEqualTo("720");
        assertThat(Integer.parseInt(f.get("nb_read_frames"))).isEqualTo(media.video.size());
        assertThat(Double.parseDouble(f.get("start_time"))).isCloseTo(media.videoDelayTicks / 90_000.0, within());
        assertThat(Double.parseDouble(f.get("duration"))).isCloseTo(SECONDS, org.assertj.core.data.Offset.offset(0.05));
        assertDecodes("video.mp4");
    }

    @Test
    void theAudioRenditionDecodesWithEveryFrameFromTimeZero() throws IOException {
        Peers.Run run = probe("audio.mp4", "stream=codec_name,sample_rate,channels,nb_read_frames,start_time,duration");
        assertThat(run.err()).as("ffprobe errors").isEmpty();
        Map<String, String> f = fields(run.out());
        assertThat(f.get("codec_name")).isEqualTo("aac");
        assertThat(f.get("sample_rate")).isEqualTo("48000");
        assertThat(f.get("channels")).isEqualTo("2");
        assertThat(Integer.parseInt(f.get("nb_read_frames"))).isEqualTo(media.audio.size());
        assertThat(Double.parseDouble(f.get("start_time"))).isCloseTo(0.0, within());
        assertThat(Double.parseDouble(f.get("duration"))).isCloseTo(media.audio.size() * 1024 / 48_000.0, within());
        assertDecodes("audio.mp4");
    }

    @Test
    void ffmpegPlaysTheHlsPresentationWithBothRenditions() throws IOException {
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
    void theRecordingIsOnePlayableFileWithBothTracksInSync() throws IOException {
        assertThat(recordings).hasSize(1);
        String file = "rec/" + recordings.keySet().iterator().next();
        Peers.Run run = Peers.run(
                out,
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-count_frames",
                        "-show_entries",
                        "stream=codec_type,nb_read_frames,start_time",
                        "-of",
                        "csv=p=0",
                        file));
        assertThat(run.err()).as("ffprobe errors").isEmpty();
        List<String> lines = run.out().lines().toList();
        assertThat(lines).hasSize(2);
        // codec_type,start_time,nb_read_frames
        List<String[]> streams = new ArrayList<>();
        lines.forEach(l -> streams.add(l.split(",")));
        String[] v =
                streams.stream().filter(s -> s[0].equals("video")).findFirst().orElseThrow();
        String[] a =
                streams.stream().filter(s -> s[0].equals("audio")).findFirst().orElseThrow();
        assertThat(Integer.parseInt(v[2])).isEqualTo(media.video.size());
        assertThat(Integer.parseInt(a[2])).isEqualTo(media.audio.size());
        // The source had both tracks start together; so does the recording (video's first
        // picture is shown after its B-frame delay, as in the source).
        assertThat(Double.parseDouble(v[1]) - Double.parseDouble(a[1]))
                .isCloseTo(media.videoDelayTicks / 90_000.0, within());
        assertDecodes(file);
    }

    private static void assertDecodes(String file) throws IOException {
        Peers.Run decode = Peers.run(out, List.of("ffmpeg", "-v", "error", "-i", file, "-f", "null", "-"));
        assertThat(decode.err()).as("ffmpeg errors decoding " + file).isEmpty();
        assertThat(decode.exit()).isZero();
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(0.002);
    }
}
