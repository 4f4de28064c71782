package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.media.TrackType;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * EXT-X-PROGRAM-DATE-TIME: the injected wall clock at the stream's first keyframe, carried by the
 * media clock; the same mapping in both renditions (§6.2.4); re-anchored after a discontinuity
 * without ever overlapping the segment before (§6.2.1).
 */
class ProgramDateTimeTest {
    private final SyntheticStream stream = new SyntheticStream();
    private final Harness h = Harness.av();

    private static long ms(String pdt) {
        return Instant.parse(pdt).toEpochMilli();
    }

    @Test
    void everySegmentIsDatedByTheWallClockAtTheStartPlusMediaTime() {
        long startWall = h.wall.nowMs;
        h.feed(stream.generate(0, 12_000));

        M3u8 v = h.playlist(TrackType.VIDEO);
        List<M3u8.Seg> segs = v.segments;
        assertThat(ms(segs.get(0).programDateTime)).isEqualTo(startWall);
        for (int i = 1; i < segs.size(); i++) {
            assertThat(segs.get(i).programDateTime)
                    .as("segment %d", segs.get(i).msn)
                    .isNotNull();
            long gap = ms(segs.get(i).programDateTime) - ms(segs.get(i - 1).programDateTime);
            assertThat(gap)
                    .isCloseTo(Math.round(segs.get(i - 1).duration * 1000), org.assertj.core.data.Offset.offset(1L));
        }
    }

    @Test
    void videoAndAudioSegmentsOfTheSameNumberHaveTheSameDate() {
        h.feed(stream.generate(0, 12_000));
        M3u8 v = h.playlist(TrackType.VIDEO);
        M3u8 a = h.playlist(TrackType.AUDIO);
        for (M3u8.Seg vs : v.completeSegments()) {
            M3u8.Seg as =
                    a.segments.stream().filter(s -> s.msn == vs.msn).findFirst().orElseThrow();
            // Audio starts at the AAC frame nearest the video's cut: within half a frame.
            assertThat(Math.abs(ms(as.programDateTime) - ms(vs.programDateTime)))
                    .isLessThanOrEqualTo(11);
        }
    }

    @Test
    void afterAPublisherRestartTheDateFollowsTheWallClockAndNeverOverlaps() {
        h.feed(stream.generate(0, 6_000));
        // The publisher is gone for 10 s and comes back with timestamps from zero.
        h.advance(10_000_000_000L);
        long restartWall = h.wall.nowMs;
        h.resync();
        h.feed(stream.generate(0, 6_000));

        for (TrackType t : TrackType.values()) {
            M3u8 p = h.playlist(t);
            M3u8.Seg after =
                    p.segments.stream().filter(s -> s.discontinuity).findFirst().orElseThrow();
            M3u8.Seg before = p.segments.get(p.segments.indexOf(after) - 1);
            long beforeEnd = ms(before.programDateTime) + Math.round(before.duration * 1000);
            assertThat(ms(after.programDateTime)).isGreaterThanOrEqualTo(beforeEnd);
            assertThat(ms(after.programDateTime)).isCloseTo(restartWall, org.assertj.core.data.Offset.offset(40L));
        }
    }

    @Test
    void aBackwardJumpWithoutAPauseContinuesTheDates() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(stream.generate(0, 6_000)); // timestamps restart at once

        M3u8 v = h.playlist(TrackType.VIDEO);
        for (int i = 1; i < v.segments.size(); i++) {
            M3u8.Seg prev = v.segments.get(i - 1);
            long prevEnd = ms(prev.programDateTime) + Math.round(prev.duration * 1000);
            assertThat(ms(v.segments.get(i).programDateTime)).isGreaterThanOrEqualTo(prevEnd - 1);
        }
        assertThat(v.segments.stream().filter(s -> s.discontinuity)).hasSize(1);
    }
}
