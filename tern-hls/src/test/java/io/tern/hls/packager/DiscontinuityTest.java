package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.Objects;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * §6.2.1: a timestamp jump, a backwards timestamp or a codec change is an EXT-X-DISCONTINUITY
 * (with a new EXT-X-MAP on a codec change) in both renditions at the same media sequence
 * number, with DISCONTINUITY-SEQUENCE right as the window slides, and never a broken fragment.
 */
class DiscontinuityTest {
    private final SyntheticStream stream = new SyntheticStream();
    private final Harness h = Harness.av();

    /** The MSNs of segments tagged EXT-X-DISCONTINUITY, the same in both renditions. */
    private List<Long> discontinuities() {
        List<Long> video = new ArrayList<>();
        List<Long> audio = new ArrayList<>();
        h.playlist(TrackType.VIDEO).segments.stream()
                .filter(s -> s.discontinuity)
                .forEach(s -> video.add(s.msn));
        h.playlist(TrackType.AUDIO).segments.stream()
                .filter(s -> s.discontinuity)
                .forEach(s -> audio.add(s.msn));
        assertThat(audio).isEqualTo(video);
        return video;
    }

    private void assertWellFormed() {
        Objects.assertWellFormed(h, TrackType.VIDEO);
        Objects.assertWellFormed(h, TrackType.AUDIO);
    }

    private static List<AccessUnit> shifted(List<AccessUnit> units, long ticks) {
        List<AccessUnit> out = new ArrayList<>();
        for (AccessUnit au : units) {
            out.add(new AccessUnit(au.track(), au.dts() + ticks, au.pts() + ticks, au.keyframe(), au.data()));
        }
        return out;
    }

    @Test
    void aForwardJumpIsADiscontinuityInBothRenditions() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(shifted(stream.generate(6_000, 6_000), 100 * 90_000L)); // 100 s ahead

        assertThat(discontinuities()).hasSize(1);
        assertThat(h.packager.stats().discontinuities()).isEqualTo(1);
        assertWellFormed();
    }

    @Test
    void aBackwardsTimestampIsADiscontinuity() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(stream.generate(0, 6_000));

        assertThat(discontinuities()).hasSize(1);
        assertWellFormed();
    }

    @Test
    void theDiscontinuitySequenceCountsTagsThatLeftTheWindow() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(stream.generate(0, 40_000)); // two discontinuities, then enough to slide past both

        for (TrackType t : TrackType.values()) {
            M3u8 p = h.playlist(t);
            assertThat(p.segments.stream().filter(s -> s.discontinuity)).isEmpty();
            assertThat(p.discontinuitySequence).isEqualTo(2);
        }
        assertWellFormed();
    }

    @Test
    void whileTheTagIsInTheWindowTheSequenceCountsOnlyWhatLeft() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        h.feed(stream.generate(0, 22_000));
        M3u8 v = h.playlist(TrackType.VIDEO);
        // The first listed segment precedes the tag: sequence 0, one tag, segments after it are 1.
        assertThat(v.discontinuitySequence).isZero();
        assertThat(v.segments.stream().filter(s -> s.discontinuity)).hasSize(1);
        h.feed(stream.generate(22_000, 10_000));
        v = h.playlist(TrackType.VIDEO);
        assertThat(v.discontinuitySequence).isEqualTo(1);
    }

    @Test
    void aJumpInTheMiddleOfAGopWaitsForTheNextKeyframe() {
        h.feed(stream.generate(0, 5_500)); // ends mid-GOP
        h.resync();
        h.feed(shifted(stream.generate(5_500, 4_000), 50 * 90_000L));

        assertThat(h.packager.stats().droppedBeforeKeyframe()).isPositive();
        M3u8 v = h.playlist(TrackType.VIDEO);
        M3u8.Seg after =
                v.segments.stream().filter(s -> s.discontinuity).findFirst().orElseThrow();
        assertThat(after.parts.get(0).independent()).isTrue();
        assertWellFormed();
    }

    @Test
    void aVideoCodecChangeStartsANewInitSegment() {
        h.feed(stream.generate(0, 5_000));
        h.configure(TestMedia.avc360p()); // the publisher changes resolution at a keyframe
        h.feed(stream.generate(5_000, 5_000));

        M3u8 v = h.playlist(TrackType.VIDEO);
        assertThat(v.maps).containsExactly("video-init-0.mp4", "video-init-1.mp4");
        M3u8.Seg after =
                v.segments.stream().filter(s -> s.discontinuity).findFirst().orElseThrow();
        assertThat(after.map).isEqualTo("video-init-1.mp4");
        Mp4Reader init = Mp4Reader.read(h.bytes("video-init-1.mp4"));
        assertThat(init.tracks.get(1).width()).isEqualTo(640);
        // Audio gets the discontinuity at the same number, but keeps its init segment.
        M3u8 a = h.playlist(TrackType.AUDIO);
        assertThat(a.maps).containsExactly("audio-init-0.mp4");
        assertThat(discontinuities()).containsExactly(after.msn);
        assertWellFormed();
    }

    @Test
    void framesKeepTheConfigurationTheyArrivedWith() {
        // The last frame before the change is a keyframe at the segment target: it closes a
        // segment of its own, still under the old init segment.
        h.feed(stream.generate(0, 2_001));
        long changedAt = 2_001 * 90L;
        h.configure(TestMedia.avc360p());
        h.feed(stream.generate(2_001, 3_000));

        M3u8 v = h.playlist(TrackType.VIDEO);
        String map = v.maps.get(0);
        for (M3u8.Seg s : v.segments) {
            if (s.map != null) {
                map = s.map;
            }
            byte[] body = s.complete() ? h.bytes(s.uri) : h.bytes(s.parts.get(0).uri());
            for (Mp4Reader.Sample sample :
                    Mp4Reader.read(Objects.concat(h.bytes(map), body)).samples(1)) {
                if (map.equals("video-init-0.mp4")) {
                    assertThat(sample.dts()).isLessThan(changedAt);
                } else {
                    assertThat(sample.dts()).isGreaterThan(changedAt);
                }
            }
        }
        assertThat(v.maps).containsExactly("video-init-0.mp4", "video-init-1.mp4");
    }

    @Test
    void anAudioCodecChangeStartsANewAudioInitAndADiscontinuityInBoth() {
        h.feed(stream.generate(0, 5_000));
        h.configure(TestMedia.aac44k());
        SyntheticStream s44 = new SyntheticStream();
        s44.audioRateHz = 44_100;
        h.feed(s44.generate(5_000, 6_000));

        M3u8 a = h.playlist(TrackType.AUDIO);
        assertThat(a.maps).containsExactly("audio-init-0.mp4", "audio-init-1.mp4");
        assertThat(Mp4Reader.read(h.bytes("audio-init-1.mp4")).tracks.get(2).timescale())
                .isEqualTo(44_100);
        assertThat(discontinuities()).hasSize(1);
        assertThat(h.playlist(TrackType.VIDEO).maps).containsExactly("video-init-0.mp4");
        assertWellFormed();
    }

    @Test
    void sendingTheSameConfigurationAgainChangesNothing() {
        h.feed(stream.generate(0, 3_000));
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        h.feed(stream.generate(3_000, 3_000));
        assertThat(discontinuities()).isEmpty();
    }

    @Test
    void audioThatJumpsBeforeVideoStillMakesOneAlignedDiscontinuity() {
        h.feed(stream.generate(0, 6_000));
        h.resync();
        // MPEG-TS style: the audio of the new timeline arrives 300 ms before its video.
        List<AccessUnit> next = new ArrayList<>(stream.generate(0, 6_000));
        next.sort(
                java.util.Comparator.comparingLong(au -> au.track() == TrackType.AUDIO ? au.dts() : au.dts() + 27_000));
        h.feed(next);

        List<Long> msns = discontinuities();
        assertThat(msns).hasSize(1);
        M3u8.Seg v = h.playlist(TrackType.VIDEO).segments.stream()
                .filter(s -> s.msn == msns.get(0))
                .findFirst()
                .orElseThrow();
        M3u8.Seg a = h.playlist(TrackType.AUDIO).segments.stream()
                .filter(s -> s.msn == msns.get(0))
                .findFirst()
                .orElseThrow();
        long skew = java.time.Duration.between(
                        java.time.Instant.parse(v.programDateTime), java.time.Instant.parse(a.programDateTime))
                .toMillis();
        assertThat(Math.abs(skew)).isLessThanOrEqualTo(11);
        assertWellFormed();
    }
}
