package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** §4.4.6: the multivariant playlist, measured and described from the stream itself. */
class MultivariantPlaylistTest {
    @Test
    void videoWithAnAudioGroupMeasuredFromTheSegments() {
        Harness h = Harness.av();
        h.feed(new SyntheticStream().generate(0, 12_000));

        M3u8 m = h.multivariant();
        assertThat(m.media).hasSize(1);
        Map<String, String> audio = m.media.get(0);
        assertThat(audio.get("TYPE")).isEqualTo("AUDIO");
        assertThat(audio.get("URI")).isEqualTo("t1/audio.m3u8");
        assertThat(audio.get("CHANNELS")).isEqualTo("2");
        assertThat(audio.get("DEFAULT")).isEqualTo("YES");
        Map<String, String> inf = m.streamInfs.get(0);
        assertThat(inf.get("AUDIO")).isEqualTo(audio.get("GROUP-ID"));
        assertThat(inf.get("CODECS")).isEqualTo("avc1.64001f,mp4a.40.2");
        assertThat(inf.get("RESOLUTION")).isEqualTo("1280x720");
        assertThat(inf.get("FRAME-RATE")).isEqualTo("30.000");
        assertThat(m.variantUris).containsExactly("t1/video.m3u8");

        long[] peakAndAverage = new long[2];
        for (TrackType t : TrackType.values()) {
            long[] r = rates(h, h.playlist(t));
            peakAndAverage[0] += r[0];
            peakAndAverage[1] += r[1];
        }
        long bandwidth = Long.parseLong(inf.get("BANDWIDTH"));
        long average = Long.parseLong(inf.get("AVERAGE-BANDWIDTH"));
        assertThat(bandwidth).isCloseTo(peakAndAverage[0], org.assertj.core.data.Percentage.withPercentage(0.5));
        assertThat(average).isCloseTo(peakAndAverage[1], org.assertj.core.data.Percentage.withPercentage(0.5));
        assertThat(bandwidth).isGreaterThanOrEqualTo(average);
    }

    /** Peak and average bits per second of the listed segments, from their bytes and EXTINF. */
    private static long[] rates(Harness h, M3u8 p) {
        double peak = 0;
        double bits = 0;
        double seconds = 0;
        for (M3u8.Seg s : p.completeSegments()) {
            double b = h.bytes(s.uri).length * 8.0;
            peak = Math.max(peak, b / s.duration);
            bits += b;
            seconds += s.duration;
        }
        return new long[] {Math.round(peak), Math.round(bits / seconds)};
    }

    @Test
    void codecsResolutionAndRateComeFromTheStreamsOwnConfiguration() {
        Harness h = new Harness(
                PackagerConfig.defaults("x").withRenditions(RenditionMode.SEPARATE), StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc360p(), TestMedia.aac44k());
        SyntheticStream s = new SyntheticStream();
        s.fps = 25;
        s.gopFrames = 25;
        s.audioRateHz = 44_100;
        h.feed(s.generate(0, 6_000));

        M3u8 m = h.multivariant();
        assertThat(m.streamInfs.get(0).get("CODECS")).isEqualTo("avc1.42c01e,mp4a.40.2");
        assertThat(m.streamInfs.get(0).get("RESOLUTION")).isEqualTo("640x360");
        assertThat(m.streamInfs.get(0).get("FRAME-RATE")).isEqualTo("25.000");
        assertThat(m.media.get(0).get("CHANNELS")).isEqualTo("1");
    }

    @Test
    void audioOnlyAndVideoOnlyStreamsHaveOneRenditionAndNoGroup() {
        Harness a = new Harness(PackagerConfig.defaults("a"), StreamLayout.AUDIO_ONLY);
        a.configure(TestMedia.aac48k());
        SyntheticStream s = new SyntheticStream();
        s.video = false;
        a.feed(s.generate(0, 5_000));
        M3u8 audioOnly = a.multivariant();
        assertThat(audioOnly.media).isEmpty();
        assertThat(audioOnly.streamInfs.get(0).get("CODECS")).isEqualTo("mp4a.40.2");
        assertThat(audioOnly.streamInfs.get(0)).doesNotContainKeys("RESOLUTION", "AUDIO");
        assertThat(audioOnly.variantUris).containsExactly("a/audio.m3u8");

        Harness v = new Harness(PackagerConfig.defaults("v"), StreamLayout.VIDEO_ONLY);
        v.configure(TestMedia.avc720p());
        SyntheticStream sv = new SyntheticStream();
        sv.audio = false;
        v.feed(sv.generate(0, 5_000));
        M3u8 videoOnly = v.multivariant();
        assertThat(videoOnly.media).isEmpty();
        assertThat(videoOnly.streamInfs.get(0).get("CODECS")).isEqualTo("avc1.64001f");
        assertThat(videoOnly.streamInfs.get(0)).doesNotContainKey("AUDIO");
    }

    @Test
    void theMultivariantPlaylistWaitsForTheFirstSegmentOfEveryRendition() {
        Harness h = Harness.av();
        PlaylistAnswer a = h.packager.multivariantPlaylist(h.nowNs);
        assertThat(a).isInstanceOf(PlaylistAnswer.Wait.class);
        long ticket = ((PlaylistAnswer.Wait) a).ticket();

        h.feed(new SyntheticStream().generate(0, 1_900));
        assertThat(h.events(HlsEvent.PlaylistReady.class)).isEmpty();
        h.feed(new SyntheticStream().generate(1_900, 300));

        HlsEvent.PlaylistReady ready = h.events(HlsEvent.PlaylistReady.class).stream()
                .filter(e -> e.tickets()[0] == ticket)
                .findFirst()
                .orElseThrow();
        assertThat(M3u8.parse(ready.body()).streamInfs).hasSize(1);
    }
}
