package io.tern.bench.origin.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.PlaylistParser;
import org.junit.jupiter.api.Test;

/** The delay, lateness and live-edge arithmetic, on hand-made playlists and simulated times. */
class MediaTimelineTest {
    static final String PATH = "/live/s/i/video.m3u8";
    static final long MS = 1_000_000L;

    /**
     * Segments {@code first..lastComplete} (1 s each; five parts listed for the last complete
     * one), then {@code openParts} parts of the open segment and a hint.
     */
    static MediaPlaylist ll(long first, long lastComplete, int openParts) {
        StringBuilder sb = new StringBuilder("#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
                + "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.6\n"
                + "#EXT-X-PART-INF:PART-TARGET=0.2\n#EXT-X-MEDIA-SEQUENCE:" + first + "\n");
        for (long m = first; m <= lastComplete; m++) {
            if (m == lastComplete) {
                for (int p = 0; p < 5; p++) {
                    sb.append("#EXT-X-PART:DURATION=0.2,URI=\"p")
                            .append(m)
                            .append('-')
                            .append(p)
                            .append(".m4s\"\n");
                }
            }
            sb.append("#EXTINF:1.0,\ns").append(m).append(".m4s\n");
        }
        for (int p = 0; p < openParts; p++) {
            sb.append("#EXT-X-PART:DURATION=0.2,URI=\"p")
                    .append(lastComplete + 1)
                    .append('-')
                    .append(p)
                    .append(".m4s\"\n");
        }
        sb.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p")
                .append(lastComplete + 1)
                .append('-')
                .append(openParts)
                .append(".m4s\"\n");
        return PlaylistParser.parseMedia(PATH, sb.toString());
    }

    @Test
    void deliveryDelayIsCompletionMinusFirstListing() {
        MediaTimeline t = new MediaTimeline();
        t.listed(ll(0, 4, 2), 100 * MS);
        t.listed(ll(0, 4, 3), 300 * MS); // part 5.2 first listed now; 5.0 and 5.1 keep 100 ms
        assertThat(t.deliveryDelayNs(PATH, 5, 0, 150 * MS)).isEqualTo(50 * MS);
        assertThat(t.deliveryDelayNs(PATH, 5, 2, 310 * MS)).isEqualTo(10 * MS);
        assertThat(t.deliveryDelayNs(PATH, 4, -1, 1100 * MS)).isEqualTo(1000 * MS);
        assertThat(t.deliveryDelayNs(PATH, 5, 3, 400 * MS)).as("not listed yet").isEqualTo(-1);
        assertThat(t.deliveryDelayNs(PATH, 5, -1, 400 * MS))
                .as("segment 5 not complete")
                .isEqualTo(-1);
        assertThat(t.deliveryDelayNs("/other.m3u8", 1, -1, 400 * MS)).isEqualTo(-1);
    }

    @Test
    void releaseLatenessCountsFromTheFirstEvidenceThePartExisted() {
        MediaTimeline t = new MediaTimeline();
        t.listed(ll(0, 4, 2), 100 * MS);
        // A viewer's hinted download of 5.2 completes at 290 ms; the first playlist listing it arrives at 300 ms.
        t.hintedPartCompleted(PATH, 5, 2, 290 * MS);
        MediaPlaylist withPart = ll(0, 4, 3);
        t.listed(withPart, 300 * MS);
        assertThat(t.releaseLatenessNs(withPart, 5, 2, 300 * MS)).isEqualTo(10 * MS);
        assertThat(t.releaseLatenessNs(withPart, 5, 2, 315 * MS)).isEqualTo(25 * MS);
        // A part listed before any hinted download finished exists since its listing.
        t.listed(ll(0, 4, 4), 500 * MS);
        t.hintedPartCompleted(PATH, 5, 3, 505 * MS);
        assertThat(t.releaseLatenessNs(ll(0, 4, 4), 5, 3, 520 * MS)).isEqualTo(20 * MS);
        // Asked for a part not in the answer: released without its target.
        assertThat(t.releaseLatenessNs(withPart, 5, 4, 600 * MS)).isEqualTo(-1);
    }

    @Test
    void aPartPastTheEndOfAFinishedSegmentMeansPartZeroOfTheNext() {
        MediaTimeline t = new MediaTimeline();
        MediaPlaylist p = ll(0, 5, 1); // segment 5 complete with 5 parts, 6.0 listed
        t.listed(p, 100 * MS);
        assertThat(t.releaseLatenessNs(p, 5, 5, 130 * MS)).isEqualTo(30 * MS);
    }

    @Test
    void edgeAdvanceIsTheSlopeOfMediaTimeOverWallTime() {
        MediaTimeline t = new MediaTimeline();
        t.listed(ll(0, 5, 0), 0); // the back window arrives at once: before the measured window
        for (int i = 1; i <= 20; i++) {
            t.listed(ll(0, 5 + i, 0), i * 1000 * MS + (i % 3) * 7 * MS); // ±7 ms jitter
        }
        assertThat(t.edgeAdvance(500 * MS, 21_000 * MS)).isCloseTo(1.0, within(0.01));
        assertThat(t.edgeSegments(500 * MS, 21_000 * MS)).isEqualTo(20);
        assertThat(t.edgeAdvance(500 * MS, 2500 * MS))
                .as("two points are not enough")
                .isNaN();

        MediaTimeline slow = new MediaTimeline();
        for (int i = 0; i <= 10; i++) {
            slow.listed(ll(0, i, 0), i * 2000 * MS); // a segment every 2 s
        }
        assertThat(slow.edgeAdvance(1, 30_000 * MS)).isCloseTo(0.5, within(0.001));
    }

    @Test
    void slotsAreReusedARingLaterWithoutKeepingOldTimes() {
        MediaTimeline t = new MediaTimeline();
        t.listed(ll(0, 3, 2), 100 * MS);
        long later = 3 + MediaTimeline.SEGMENT_SLOTS;
        t.listed(ll(later - 2, later, 2), 900 * MS);
        assertThat(t.deliveryDelayNs(PATH, later, -1, 1000 * MS)).isEqualTo(100 * MS);
        assertThat(t.deliveryDelayNs(PATH, later + 1, 0, 1000 * MS)).isEqualTo(100 * MS);
        assertThat(t.deliveryDelayNs(PATH, 3, -1, 1000 * MS)).as("overwritten").isEqualTo(-1);
        // An old playlist arriving late does not take the slot back.
        t.listed(ll(0, 3, 2), 950 * MS);
        assertThat(t.deliveryDelayNs(PATH, later, -1, 1000 * MS)).isEqualTo(100 * MS);
    }

    @Test
    void remembersTheTargetsOfTheFirstRendition() {
        MediaTimeline t = new MediaTimeline();
        t.listed(ll(0, 3, 1), 0);
        assertThat(t.partTargetUs()).isEqualTo(200_000);
        assertThat(t.targetDurationUs()).isEqualTo(1_000_000);
        assertThat(t.renditions()).isEqualTo(1);
    }
}
