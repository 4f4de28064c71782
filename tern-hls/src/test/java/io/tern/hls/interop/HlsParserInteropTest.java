package io.tern.hls.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.playlist.DateRange;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hls-parser (npm, strict mode), an independent parser, reads every playlist variant the
 * packager produces: full, delta (YES and v2), blocked-reload answers, multivariant, around a
 * discontinuity and after the end, and agrees with our own reading of them.
 */
class HlsParserInteropTest {
    @TempDir
    Path dir;

    private final Map<String, byte[]> playlists = new LinkedHashMap<>();
    private final SyntheticStream stream = new SyntheticStream();

    @Test
    void hlsParserAcceptsEveryPlaylistVariant() throws IOException {
        Peers.requireHlsParser();
        Harness h = Harness.av();
        long t0 = h.wall.nowMs;
        h.packager.addDateRange(new DateRange("ad-1", "com.example.ad", t0 + 1_000, 5_000), h.nowNs);
        h.feed(stream.generate(0, 14_000));
        h.packager.addDateRange(new DateRange("ad-2", "com.example.ad", t0 + 15_000, 2_000), h.nowNs);
        h.feed(stream.generate(14_000, 14_000));

        for (TrackType t : TrackType.values()) {
            String n = t.name().toLowerCase();
            playlists.put(n + "-full", h.playlistBytes(t, ""));
            playlists.put(n + "-delta", h.playlistBytes(t, "_HLS_skip=YES"));
            playlists.put(n + "-delta-v2", h.playlistBytes(t, "_HLS_skip=v2"));
            M3u8 now = h.playlist(t);
            PlaylistAnswer.Wait w =
                    (PlaylistAnswer.Wait) h.request(t, Harness.query(now.lastPartMsn(), now.lastPartIndex() + 1));
            PlaylistAnswer.Wait ws = (PlaylistAnswer.Wait)
                    h.request(t, Harness.query(now.lastPartMsn(), now.lastPartIndex() + 1) + "&_HLS_skip=YES");
            h.feed(stream.generate(28_000 + (t == TrackType.VIDEO ? 0 : 300), 300));
            playlists.put(n + "-blocked", readyBody(h, w.ticket()));
            playlists.put(n + "-blocked-delta", readyBody(h, ws.ticket()));
        }
        playlists.put("multivariant", ((PlaylistAnswer.Ready) h.packager.multivariantPlaylist(h.nowNs)).body());
        // A publisher restart: a discontinuity in the window.
        h.resync();
        h.feed(stream.generate(0, 5_000));
        playlists.put("video-discontinuity", h.playlistBytes(TrackType.VIDEO, ""));
        playlists.put("audio-discontinuity", h.playlistBytes(TrackType.AUDIO, ""));
        h.end();
        playlists.put("video-ended", h.playlistBytes(TrackType.VIDEO, ""));
        playlists.put("audio-ended", h.playlistBytes(TrackType.AUDIO, ""));

        Harness a = new Harness(PackagerConfig.defaults("a"), StreamLayout.AUDIO_ONLY);
        a.configure(TestMedia.aac44k());
        SyntheticStream audioOnly = new SyntheticStream();
        audioOnly.video = false;
        audioOnly.audioRateHz = 44_100;
        a.feed(audioOnly.generate(0, 1_920 * 44_100 / 48_000 + 10));
        playlists.put("audio-only-after-segment", a.playlistBytes(TrackType.AUDIO, ""));
        a.feed(audioOnly.generate(2_000, 4_000));
        playlists.put("audio-only", a.playlistBytes(TrackType.AUDIO, ""));
        playlists.put(
                "audio-only-multivariant", ((PlaylistAnswer.Ready) a.packager.multivariantPlaylist(a.nowNs)).body());

        // One muxed rendition: its playlist in the same variants, and its one-variant multivariant.
        Harness m = new Harness(
                PackagerConfig.defaults("m").withRenditions(RenditionMode.MUXED), StreamLayout.VIDEO_AND_AUDIO);
        m.configure(TestMedia.avc720p(), TestMedia.aac48k());
        m.feed(new SyntheticStream().generate(0, 28_000));
        playlists.put("muxed-full", m.playlistBytes(TrackType.VIDEO, ""));
        playlists.put("muxed-delta", m.playlistBytes(TrackType.VIDEO, "_HLS_skip=YES"));
        playlists.put("muxed-multivariant", ((PlaylistAnswer.Ready) m.packager.multivariantPlaylist(m.nowNs)).body());
        m.resync();
        m.feed(new SyntheticStream().generate(0, 5_000));
        m.end();
        playlists.put("muxed-ended", m.playlistBytes(TrackType.VIDEO, ""));

        Map<String, String> parsed = parse();

        for (Map.Entry<String, byte[]> e : playlists.entrySet()) {
            String json = parsed.get(e.getKey());
            assertThat(json).as(e.getKey()).contains("\"ok\":true");
            M3u8 ours = M3u8.parse(e.getValue());
            if (ours.streamInfs.isEmpty()) {
                assertThat(number(json, "parts"))
                        .as(e.getKey() + " parts")
                        .isEqualTo(ours.parts().size());
                assertThat(number(json, "segments"))
                        .as(e.getKey())
                        .isEqualTo(ours.completeSegments().size());
                assertThat(number(json, "hints")).as(e.getKey()).isEqualTo(ours.preloadHints.size());
                assertThat(number(json, "skip"))
                        .isEqualTo(ours.skip == null ? 0 : Long.parseLong(ours.skip.get("SKIPPED-SEGMENTS")));
                assertThat(json).contains("\"endlist\":" + ours.endList);
                assertThat(number(json, "programDateTimes")).isEqualTo(ours.segments.size());
            }
        }
        assertThat(number(parsed.get("video-delta"), "skip")).isPositive();
        assertThat(parsed.get("video-full")).contains("\"canBlockReload\":true").contains("\"uri\":\"audio.m3u8\"");
        assertThat(parsed.get("video-delta-v2")).contains("\"version\":10");
        assertThat(number(parsed.get("video-discontinuity"), "discontinuities")).isEqualTo(1);
        assertThat(parsed.get("multivariant"))
                .contains("\"codecs\":\"avc1.64001f,mp4a.40.2\"")
                .contains("\"resolution\":{\"width\":1280,\"height\":720}")
                .contains("\"groupId\":\"audio\"");
        assertThat(parsed.get("audio-only-multivariant")).contains("\"codecs\":\"mp4a.40.2\"");
        assertThat(parsed.get("muxed-multivariant"))
                .contains("\"codecs\":\"avc1.64001f,mp4a.40.2\"")
                .doesNotContain("\"groupId\"");
        assertThat(number(parsed.get("muxed-delta"), "skip")).isPositive();
        assertThat(parsed.get("muxed-full")).doesNotContain("\"uri\":\"audio.m3u8\"");
        assertThat(number(parsed.get("muxed-ended"), "discontinuities")).isEqualTo(1);
    }

    private static byte[] readyBody(Harness h, long ticket) {
        for (HlsEvent.PlaylistReady r : h.events(HlsEvent.PlaylistReady.class)) {
            for (long t : r.tickets()) {
                if (t == ticket) {
                    return r.body();
                }
            }
        }
        throw new AssertionError("ticket " + ticket + " not answered");
    }

    private Map<String, String> parse() throws IOException {
        List<String> command = new ArrayList<>(
                List.of("node", Peers.NODE_DIR.resolve("parse_playlists.js").toString()));
        for (Map.Entry<String, byte[]> e : playlists.entrySet()) {
            Path f = dir.resolve(e.getKey() + ".m3u8");
            Files.write(f, e.getValue());
            command.add(f.toString());
        }
        Peers.Run run = Peers.run(Peers.NODE_DIR, command);
        assertThat(run.exit()).as(run.err()).isZero();
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : run.out().split("\n")) {
            Matcher m = Pattern.compile("\"file\":\"[^\"]*/([^/\"]+)\\.m3u8\"").matcher(line);
            if (m.find()) {
                out.put(m.group(1), line);
            }
        }
        assertThat(out.keySet()).containsExactlyElementsOf(playlists.keySet());
        return out;
    }

    private static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(-?\\d+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError(field + " not in " + json);
        }
        return Long.parseLong(m.group(1));
    }
}
