package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tags every live LL-HLS media playlist carries: preload hint, server control, rendition reports. */
class LivePlaylistTagsTest {
    @Test
    void everyLivePlaylistHintsExactlyOnePartAndItIsTheNextOneListed() {
        Harness h = Harness.av();
        List<M3u8> video = new ArrayList<>();
        List<M3u8> audio = new ArrayList<>();
        h.afterEach = au -> {
            M3u8 v = h.playlistIfReady(TrackType.VIDEO);
            M3u8 a = h.playlistIfReady(TrackType.AUDIO);
            if (v != null) video.add(v);
            if (a != null) audio.add(a);
        };
        h.feed(new SyntheticStream().generate(0, 8_000));

        for (List<M3u8> snapshots : List.of(video, audio)) {
            assertThat(snapshots).hasSizeGreaterThan(100);
            for (int i = 0; i < snapshots.size(); i++) {
                M3u8 p = snapshots.get(i);
                assertThat(p.preloadHints).hasSize(1);
                Map<String, String> hint = p.preloadHints.get(0);
                assertThat(hint.get("TYPE")).isEqualTo("PART");
                assertThat(p.parts()).extracting(M3u8.PartTag::uri).doesNotContain(hint.get("URI"));
                // The first later snapshot with more parts lists the hinted part next.
                List<M3u8.PartTag> parts = p.parts();
                for (int j = i + 1; j < snapshots.size(); j++) {
                    List<M3u8.PartTag> later = snapshots.get(j).parts();
                    if (!later.get(later.size() - 1)
                            .uri()
                            .equals(parts.get(parts.size() - 1).uri())) {
                        int k = later.stream()
                                .map(M3u8.PartTag::uri)
                                .toList()
                                .indexOf(parts.get(parts.size() - 1).uri());
                        assertThat(later.get(k + 1).uri()).isEqualTo(hint.get("URI"));
                        break;
                    }
                }
            }
        }
    }

    @Test
    void noPreloadHintAfterEndList() {
        Harness h = Harness.av();
        h.feed(new SyntheticStream().generate(0, 5_000));
        h.end();

        for (TrackType t : TrackType.values()) {
            M3u8 p = h.playlist(t);
            assertThat(p.endList).isTrue();
            assertThat(p.preloadHints).isEmpty();
            assertThat(p.lines.get(p.lines.size() - 1)).doesNotStartWith("#EXT-X-PRELOAD-HINT");
        }
    }

    @Test
    void serverControlAdvertisesBlockingReloadAndHoldBacksWithinTheLimits() {
        Harness h = Harness.av();
        h.feed(new SyntheticStream().generate(0, 5_000));

        Map<String, String> first = null;
        for (TrackType t : TrackType.values()) {
            M3u8 p = h.playlist(t);
            Map<String, String> sc = p.serverControl;
            assertThat(sc.get("CAN-BLOCK-RELOAD")).isEqualTo("YES");
            assertThat(Double.parseDouble(sc.get("PART-HOLD-BACK"))).isGreaterThanOrEqualTo(3 * p.partTarget);
            assertThat(Double.parseDouble(sc.get("HOLD-BACK"))).isGreaterThanOrEqualTo(3.0 * p.targetDuration);
            assertThat(Double.parseDouble(sc.get("CAN-SKIP-UNTIL"))).isGreaterThanOrEqualTo(6.0 * p.targetDuration);
            // §6.2.4: every media playlist of the presentation has the same server control.
            if (first != null) {
                assertThat(sc).isEqualTo(first);
            }
            first = sc;
        }
    }

    @Test
    void eachRenditionReportsTheOthersLastPart() {
        Harness h = Harness.av();
        List<String> checked = new ArrayList<>();
        h.afterEach = au -> {
            M3u8 v = h.playlistIfReady(TrackType.VIDEO);
            M3u8 a = h.playlistIfReady(TrackType.AUDIO);
            if (v == null || a == null) {
                return;
            }
            assertReports(v, a, "audio.m3u8");
            assertReports(a, v, "video.m3u8");
            checked.add(v.lastPartMsn() + "/" + a.lastPartMsn());
        };
        h.feed(new SyntheticStream().generate(0, 6_000));
        assertThat(checked).hasSizeGreaterThan(100);
    }

    private static void assertReports(M3u8 playlist, M3u8 other, String otherUri) {
        assertThat(playlist.renditionReports).hasSize(1);
        Map<String, String> report = playlist.renditionReports.get(0);
        assertThat(report.get("URI")).isEqualTo(otherUri);
        assertThat(Long.parseLong(report.get("LAST-MSN"))).isEqualTo(other.lastPartMsn());
        assertThat(Integer.parseInt(report.get("LAST-PART"))).isEqualTo(other.lastPartIndex());
    }

    @Test
    void aSingleRenditionStreamReportsNoOtherRendition() {
        Harness h = new Harness(PackagerConfig.defaults("t"), StreamLayout.VIDEO_ONLY);
        h.configure(TestMedia.avc720p());
        SyntheticStream s = new SyntheticStream();
        s.audio = false;
        h.feed(s.generate(0, 5_000));

        M3u8 p = h.playlist(TrackType.VIDEO);
        assertThat(p.renditionReports).isEmpty();
        assertThat(p.preloadHints).hasSize(1);
    }
}
