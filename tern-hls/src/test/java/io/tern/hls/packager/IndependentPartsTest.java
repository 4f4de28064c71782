package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.media.TrackType;
import org.junit.jupiter.api.Test;

/**
 * §4.4.4.9: INDEPENDENT=YES on exactly the parts whose first sample is a sync sample, read back
 * from the part's own bytes; segments are cut at keyframes so every segment's first part is one.
 */
class IndependentPartsTest {
    @Test
    void independentMarksExactlyThePartsThatStartWithAKeyframe() {
        Harness h = Harness.av();
        h.feed(new SyntheticStream().generate(0, 12_000));

        int independent = 0;
        for (TrackType t : TrackType.values()) {
            M3u8 p = h.playlist(t);
            for (M3u8.PartTag part : p.parts()) {
                Mp4Reader.Sample first = Mp4Reader.read(h.bytes(part.uri()))
                        .fragments
                        .get(0)
                        .samples()
                        .get(0);
                assertThat(part.independent()).as(part.uri()).isEqualTo(first.sync());
                independent += part.independent() && t == TrackType.VIDEO ? 1 : 0;
            }
        }
        // 1 s GOPs, 200 ms parts: one independent video part in five, none of the others.
        assertThat(independent).isBetween(6, 8);
    }

    @Test
    void everySegmentStartsWithAKeyframe() {
        Harness h = Harness.av();
        SyntheticStream s = new SyntheticStream();
        s.gopFrames = 27; // 0.9 s: waiting for the keyframe after 2 s would overrun TARGETDURATION
        h.feed(s.generate(0, 20_000));

        M3u8 p = h.playlist(TrackType.VIDEO);
        assertThat(p.completeSegments()).hasSizeGreaterThan(5);
        for (M3u8.Seg seg : p.segments) {
            if (!seg.parts.isEmpty() && seg.complete()) {
                assertThat(seg.parts.get(0).independent())
                        .as("segment %d", seg.msn)
                        .isTrue();
                Mp4Reader r = Mp4Reader.read(h.bytes(seg.uri));
                assertThat(r.fragments.get(0).samples().get(0).sync()).isTrue();
            }
            if (seg.complete()) {
                assertThat(Math.round(seg.duration)).isLessThanOrEqualTo(p.targetDuration);
            }
        }
        assertThat(h.packager.stats().forcedSegmentCuts()).isZero();
    }

    @Test
    void aGopLongerThanTheTargetDurationForcesACutAndThatPartIsNotIndependent() {
        Harness h = Harness.av();
        SyntheticStream s = new SyntheticStream();
        s.gopFrames = 120; // 4 s GOP against a 2 s TARGETDURATION
        h.feed(s.generate(0, 20_000));

        M3u8 p = h.playlist(TrackType.VIDEO);
        assertThat(h.packager.stats().forcedSegmentCuts()).isPositive();
        boolean sawForced = false;
        for (M3u8.Seg seg : p.completeSegments()) {
            assertThat(Math.round(seg.duration)).isLessThanOrEqualTo(p.targetDuration);
            if (!seg.parts.isEmpty()) {
                Mp4Reader r = Mp4Reader.read(h.bytes(seg.parts.get(0).uri()));
                boolean sync = r.fragments.get(0).samples().get(0).sync();
                assertThat(seg.parts.get(0).independent()).isEqualTo(sync);
                sawForced |= !sync;
            }
        }
        assertThat(sawForced).isTrue();
    }
}
