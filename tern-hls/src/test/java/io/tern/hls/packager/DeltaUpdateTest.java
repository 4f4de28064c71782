package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.playlist.DateRange;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** §6.2.5.1 Playlist Delta Updates: {@code _HLS_skip=YES} and {@code v2}. */
class DeltaUpdateTest {
    private final SyntheticStream stream = new SyntheticStream();
    private final Harness h = Harness.av();

    @Test
    void aDeltaIsTheFullPlaylistWithTheOldSegmentsReplacedByExtXSkip() {
        h.feed(stream.generate(0, 30_000));
        for (TrackType t : TrackType.values()) {
            M3u8 full = h.playlist(t);
            M3u8 delta = h.playlist(t, "_HLS_skip=YES");

            assertThat(delta.skip).isNotNull();
            assertThat(delta.version).isGreaterThanOrEqualTo(9);
            int skipped = Integer.parseInt(delta.skip.get("SKIPPED-SEGMENTS"));
            assertThat(skipped).isPositive();
            assertThat(delta.lines)
                    .isEqualTo(expectedDelta(full, skipped, delta.version, "#EXT-X-SKIP:SKIPPED-SEGMENTS=" + skipped));
            assertSkipBoundary(full, skipped);
        }
    }

    /** The full playlist's lines, version raised, the first {@code skipped} segments replaced by {@code skipLine}. */
    static List<String> expectedDelta(M3u8 full, int skipped, int version, String skipLine) {
        List<String> out = new ArrayList<>();
        int segment = 0;
        boolean inSegments = false;
        boolean skipWritten = false;
        for (String l : full.lines) {
            if (l.startsWith("#EXT-X-VERSION:")) {
                out.add("#EXT-X-VERSION:" + version);
                continue;
            }
            boolean segmentTag = l.startsWith("#EXT-X-PROGRAM-DATE-TIME")
                    || l.equals("#EXT-X-DISCONTINUITY")
                    || l.startsWith("#EXT-X-PART:")
                    || l.startsWith("#EXTINF");
            if (segmentTag) {
                inSegments = true;
            }
            if (inSegments && segment < skipped) {
                if (!skipWritten) {
                    out.add(skipLine);
                    skipWritten = true;
                }
                if (!l.startsWith("#")) {
                    segment++;
                }
                continue;
            }
            out.add(l);
        }
        return out;
    }

    /** Skipped segments end further than CAN-SKIP-UNTIL from the end; the first kept one does not. */
    private static void assertSkipBoundary(M3u8 full, int skipped) {
        double canSkip = Double.parseDouble(full.serverControl.get("CAN-SKIP-UNTIL"));
        double total = 0;
        for (M3u8.Seg s : full.segments) {
            total += s.complete()
                    ? s.duration
                    : s.parts.stream().mapToDouble(M3u8.PartTag::duration).sum();
        }
        double end = 0;
        for (int i = 0; i < full.segments.size(); i++) {
            end += full.segments.get(i).duration;
            double fromEnd = total - end;
            if (i < skipped) {
                assertThat(fromEnd).isGreaterThan(canSkip - 0.01);
            } else {
                assertThat(fromEnd).isLessThanOrEqualTo(canSkip + 0.01);
                break;
            }
        }
    }

    @Test
    void nothingIsSkippedFromAShortPlaylist() {
        h.feed(stream.generate(0, 8_000));
        M3u8 full = h.playlist(TrackType.VIDEO);
        M3u8 delta = h.playlist(TrackType.VIDEO, "_HLS_skip=YES");
        assertThat(delta.skip).isNull();
        assertThat(delta.lines).isEqualTo(full.lines);
    }

    @Test
    void v2AlsoLeavesOutOldDateRangesAndReportsRemovedOnes() {
        long t0 = h.wall.nowMs;
        // Added at once: ends within the first segment, so it leaves the playlist with it.
        h.packager.addDateRange(new DateRange("early", "com.example.ad", t0 + 500, 1000), h.nowNs);
        h.feed(stream.generate(0, 3_000));
        h.packager.addDateRange(new DateRange("old", null, t0 + 3_000, 60_000), h.nowNs);
        h.feed(stream.generate(3_000, 24_000));
        h.packager.addDateRange(new DateRange("recent", null, t0 + 27_000, -1), h.nowNs);
        h.feed(stream.generate(27_000, 3_000));

        M3u8 full = h.playlist(TrackType.VIDEO);
        assertThat(ids(full.dateRanges)).containsExactly("old", "recent");

        M3u8 yes = h.playlist(TrackType.VIDEO, "_HLS_skip=YES");
        assertThat(yes.version).isEqualTo(9);
        assertThat(ids(yes.dateRanges)).containsExactly("old", "recent");
        assertThat(yes.skip).doesNotContainKey("RECENTLY-REMOVED-DATERANGES");

        M3u8 v2 = h.playlist(TrackType.VIDEO, "_HLS_skip=v2");
        assertThat(v2.version).isEqualTo(10);
        assertThat(ids(v2.dateRanges)).containsExactly("recent");
        assertThat(v2.skip.get("RECENTLY-REMOVED-DATERANGES")).isEqualTo("early");
        // Apart from the date ranges, the v2 delta is the v1 delta.
        int skipped = Integer.parseInt(v2.skip.get("SKIPPED-SEGMENTS"));
        List<String> withoutRanges = new ArrayList<>(expectedDelta(
                full,
                skipped,
                10,
                "#EXT-X-SKIP:SKIPPED-SEGMENTS=" + skipped + ",RECENTLY-REMOVED-DATERANGES=\"early\""));
        withoutRanges.removeIf(l -> l.startsWith("#EXT-X-DATERANGE:ID=\"old\""));
        assertThat(v2.lines).isEqualTo(withoutRanges);
        // The audio playlist carries the same date ranges.
        assertThat(ids(h.playlist(TrackType.AUDIO).dateRanges)).containsExactly("old", "recent");
    }

    @Test
    void dateRangeIdsAreNeverReused() {
        long t0 = h.wall.nowMs;
        assertThat(h.packager.addDateRange(new DateRange("a", null, t0, 100), h.nowNs))
                .isTrue();
        assertThat(h.packager.addDateRange(new DateRange("a", null, t0 + 5, 100), h.nowNs))
                .isFalse();
    }

    private static List<String> ids(List<Map<String, String>> ranges) {
        return ranges.stream().map(r -> r.get("ID")).toList();
    }
}
