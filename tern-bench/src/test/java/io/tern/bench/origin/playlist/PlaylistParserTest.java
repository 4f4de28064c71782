package io.tern.bench.origin.playlist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.bench.origin.testing.TernPlaylists;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlaylistParserTest {
    /** As nginx-rtmp 1.2.x writes it with hls_fragment 1s (captured on this machine). */
    static final String NGINX = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA-SEQUENCE:5
            #EXT-X-TARGETDURATION:1
            #EXT-X-DISCONTINUITY
            #EXTINF:1.000,
            stream-5.ts
            #EXTINF:1.000,
            stream-6.ts
            #EXTINF:0.967,
            stream-7.ts
            """;

    @Test
    void nginxClassicPlaylist() {
        MediaPlaylist p = PlaylistParser.parseMedia("/hls/stream.m3u8", NGINX);
        assertThat(p.rendition()).isEqualTo("/hls/stream.m3u8");
        assertThat(p.targetDurationUs()).isEqualTo(1_000_000);
        assertThat(p.firstListedMsn()).isEqualTo(5);
        assertThat(p.lastCompleteMsn()).isEqualTo(7);
        assertThat(p.openMsn()).isEqualTo(8);
        assertThat(p.segments())
                .extracting(MediaPlaylist.Segment::uri)
                .containsExactly("/hls/stream-5.ts", "/hls/stream-6.ts", "/hls/stream-7.ts");
        assertThat(p.segment(7).durationUs()).isEqualTo(967_000);
        assertThat(p.segment(4)).isNull();
        assertThat(p.segment(8)).isNull();
        assertThat(p.parts()).isEmpty();
        assertThat(p.hint()).isNull();
        assertThat(p.lowLatency()).isFalse();
        assertThat(p.mapUri()).isNull();
    }

    @Test
    void ternMediaPlaylistFromThePackager() {
        TernPlaylists t = new TernPlaylists().advance(8 * 30 + 17); // 8 s and 17 frames: segment 8 is open
        MediaPlaylist p = PlaylistParser.parseMedia(TernPlaylists.videoPath(), t.video(""));
        assertThat(p.lowLatency()).isTrue();
        assertThat(p.targetDurationUs()).isEqualTo(1_000_000);
        assertThat(p.partTargetUs()).isBetween(200_000L, 210_000L);
        assertThat(p.partHoldBackUs()).isGreaterThanOrEqualTo(3 * p.partTargetUs());
        assertThat(p.canSkipUntilUs()).isEqualTo(6_000_000);
        assertThat(p.canSkipDateRanges()).isTrue();
        assertThat(p.mapUri()).isEqualTo("/live/stream/i1/video-init-0.mp4");
        assertThat(p.lastCompleteMsn()).isEqualTo(7);
        assertThat(p.openMsn()).isEqualTo(8);
        // Parts of the open segment come last, numbered from 0 within it; the first is independent.
        List<MediaPlaylist.Part> open =
                p.parts().stream().filter(x -> x.msn() == 8).toList();
        assertThat(open).isNotEmpty();
        assertThat(open).extracting(MediaPlaylist.Part::index).startsWith(0, 1);
        assertThat(open.get(0).independent()).isTrue();
        assertThat(open.get(1).independent()).isFalse();
        assertThat(p.partCount(7)).isEqualTo(5);
        assertThat(p.part(7, 4).uri()).isEqualTo("/live/stream/i1/video-p39.m4s");
        // The hint is the next part of the open segment, and a blocking reload asks for it.
        assertThat(p.hint().msn()).isEqualTo(8);
        assertThat(p.hint().index()).isEqualTo(open.size());
        assertThat(p.hint().uri()).isEqualTo("/live/stream/i1/video-p" + (40 + open.size()) + ".m4s");
        assertThat(p.nextBlockingMsn()).isEqualTo(8);
        assertThat(p.nextBlockingPart()).isEqualTo(open.size());
    }

    @Test
    void atASegmentBoundaryTheBlockingReloadAsksPastTheLastPart() {
        TernPlaylists t = new TernPlaylists().advance(8 * 30 + 2); // segment 7 just completed, 8 has no part yet
        MediaPlaylist p = PlaylistParser.parseMedia(TernPlaylists.videoPath(), t.video(""));
        assertThat(p.lastCompleteMsn()).isEqualTo(7);
        assertThat(p.partCount(8)).isZero();
        assertThat(p.hint().msn()).isEqualTo(8);
        assertThat(p.hint().index()).isZero();
        // hls.js asks for part 5 of segment 7, which section 6.2.5.2 reads as part 0 of segment 8.
        assertThat(p.nextBlockingMsn()).isEqualTo(7);
        assertThat(p.nextBlockingPart()).isEqualTo(5);
    }

    @Test
    void deltaUpdateNumbersSegmentsAfterTheSkippedOnes() {
        TernPlaylists t = new TernPlaylists().advance(12 * 30 + 10);
        MediaPlaylist full = PlaylistParser.parseMedia(TernPlaylists.videoPath(), t.video(""));
        MediaPlaylist delta = PlaylistParser.parseMedia(TernPlaylists.videoPath(), t.video("_HLS_skip=YES"));
        assertThat(delta.skippedSegments()).isPositive();
        assertThat(delta.mediaSequence()).isEqualTo(full.mediaSequence());
        assertThat(delta.firstListedMsn()).isEqualTo(full.mediaSequence() + delta.skippedSegments());
        assertThat(delta.lastCompleteMsn()).isEqualTo(full.lastCompleteMsn());
        assertThat(delta.segment(delta.firstListedMsn()).uri())
                .isEqualTo(full.segment(delta.firstListedMsn()).uri());
        assertThat(delta.segment(full.mediaSequence())).isNull();
        assertThat(delta.parts()).isEqualTo(full.parts());
        assertThat(delta.hint()).isEqualTo(full.hint());
    }

    @Test
    void ternMultivariantPointsAtTheVideoAndItsAudio() {
        TernPlaylists t = new TernPlaylists().advance(3 * 30 + 5);
        Playlist p = PlaylistParser.parse("/live/stream/index.m3u8", t.multivariant());
        assertThat(p).isInstanceOf(MultivariantPlaylist.class);
        MultivariantPlaylist mv = (MultivariantPlaylist) p;
        assertThat(mv.variants()).hasSize(1);
        assertThat(mv.variants().get(0).codecs()).startsWith("avc1.").contains("mp4a.40.");
        assertThat(mv.playlistsOfFirstVariant()).containsExactly(TernPlaylists.videoPath(), TernPlaylists.audioPath());
    }

    @Test
    void variantWithoutAudioGroupIsOnePlaylist() {
        MultivariantPlaylist mv = (MultivariantPlaylist) PlaylistParser.parse(
                "/a/index.m3u8",
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"avc1.64001f\"\nv/video.m3u8\n"
                        + "#EXT-X-STREAM-INF:BANDWIDTH=500\nlow.m3u8\n");
        assertThat(mv.variants()).hasSize(2);
        assertThat(mv.playlistsOfFirstVariant()).containsExactly("/a/v/video.m3u8");
    }

    @Test
    void endListPlaylistHasNoHint() {
        MediaPlaylist p = PlaylistParser.parseMedia(
                "/x/p.m3u8",
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\na.m4s\n"
                        + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p9.m4s\"\n#EXT-X-ENDLIST\n");
        assertThat(p.endList()).isTrue();
        assertThat(p.hint()).isNull();
    }

    @Test
    void resolvesReferencesOnlyOnLoopback() {
        assertThat(Uris.resolve("/live/s/index.m3u8?x=1", "i1/video.m3u8")).isEqualTo("/live/s/i1/video.m3u8");
        assertThat(Uris.resolve("/live/s/i1/video.m3u8", "../index.m3u8")).isEqualTo("/live/s/index.m3u8");
        assertThat(Uris.resolve("/live/s/i1/video.m3u8", "./v-1.m4s?t=2")).isEqualTo("/live/s/i1/v-1.m4s?t=2");
        assertThat(Uris.resolve("/a/b.m3u8", "/c/d.ts")).isEqualTo("/c/d.ts");
        assertThat(Uris.resolve("/a/b.m3u8", "http://127.0.0.1:8080/c/d.ts")).isEqualTo("/c/d.ts");
        assertThatThrownBy(() -> Uris.resolve("/a/b.m3u8", "http://example.com/d.ts"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("127.0.0.1");
        assertThatThrownBy(() -> Uris.resolve("/a/b.m3u8", "https://127.0.0.1/d.ts"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void malformedPlaylistsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> PlaylistParser.parse("/p.m3u8", "<html>"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("#EXTM3U");
        assertThatThrownBy(() -> PlaylistParser.parse("/p.m3u8", "#EXTM3U\n#EXTINF:1,\na.ts\n"))
                .hasMessageContaining("TARGETDURATION");
        assertThatThrownBy(() -> PlaylistParser.parse("/p.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\na.ts\n"))
                .hasMessageContaining("without #EXTINF");
        assertThatThrownBy(() ->
                        PlaylistParser.parse("/p.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-PART:DURATION=0.2\n"))
                .hasMessageContaining("missing URI");
        assertThatThrownBy(() -> PlaylistParser.parse(
                        "/p.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MAP:URI=\"init.mp4\n"))
                .hasMessageContaining("unterminated");
        assertThatThrownBy(
                        () -> PlaylistParser.parseMedia("/p.m3u8", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"))
                .hasMessageContaining("multivariant");
    }
}
