package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * §4.4.3.7 / §4.4.4.9: EXT-X-PART-INF is there; no part is longer than PART-TARGET; parts other
 * than a segment's last are at least 85% of it. Across frame rates, millisecond timestamps (RTMP
 * at 29.97 fps, where neither 5 nor 6 frames fit a plain 200 ms target), audio beside video
 * and audio alone.
 */
class PartDurationRulesTest {
    record Shape(String name, StreamLayout layout, Consumer<SyntheticStream> setup, int partTargetMs) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Shape> shapes() {
        return Stream.of(
                new Shape("30 fps + 48 kHz", StreamLayout.VIDEO_AND_AUDIO, s -> {}, 200),
                new Shape(
                        "29.97 fps, ms timestamps + 44.1 kHz",
                        StreamLayout.VIDEO_AND_AUDIO,
                        s -> {
                            s.fps = 30_000.0 / 1001;
                            s.millisecondTimestamps = true;
                            s.audioRateHz = 44_100;
                        },
                        200),
                new Shape(
                        "25 fps + 48 kHz, 500 ms parts",
                        StreamLayout.VIDEO_AND_AUDIO,
                        s -> {
                            s.fps = 25;
                            s.gopFrames = 25;
                        },
                        500),
                new Shape(
                        "60 fps video only",
                        StreamLayout.VIDEO_ONLY,
                        s -> {
                            s.fps = 60;
                            s.gopFrames = 60;
                            s.audio = false;
                        },
                        200),
                new Shape("48 kHz audio only", StreamLayout.AUDIO_ONLY, s -> s.video = false, 200),
                new Shape(
                        "44.1 kHz audio only, ms timestamps",
                        StreamLayout.AUDIO_ONLY,
                        s -> {
                            s.video = false;
                            s.audioRateHz = 44_100;
                            s.millisecondTimestamps = true;
                        },
                        200));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void everyPartFitsPartTargetAndAllButTheLastReach85Percent(Shape shape) {
        SyntheticStream stream = new SyntheticStream();
        shape.setup().accept(stream);
        // Separate renditions: each track's parts are cut on their own (muxed ones are MuxedRenditionTest's).
        PackagerConfig config = PackagerConfig.defaults("t")
                .withPartTargetMs(shape.partTargetMs())
                .withRenditions(RenditionMode.SEPARATE);
        Harness h = new Harness(config, shape.layout());
        if (shape.layout().hasVideo()) {
            h.configure(TestMedia.avc720p());
        }
        if (shape.layout().hasAudio()) {
            h.configure(stream.audioRateHz == 44_100 ? TestMedia.aac44k() : TestMedia.aac48k());
        }
        List<M3u8> snapshots = new ArrayList<>();
        h.afterEach = au -> {
            for (TrackType t : TrackType.values()) {
                M3u8 p = shape.layout().has(t) ? h.playlistIfReady(t) : null;
                if (p != null) {
                    snapshots.add(p);
                }
            }
        };
        h.feed(stream.generate(0, 12_000));

        assertThat(snapshots).isNotEmpty();
        int checkedParts = 0;
        for (M3u8 p : snapshots) {
            assertThat(p.partTarget).as("EXT-X-PART-INF").isPositive();
            assertThat(p.partTarget).isLessThan(p.targetDuration);
            for (M3u8.Seg s : p.segments) {
                for (int i = 0; i < s.parts.size(); i++) {
                    M3u8.PartTag part = s.parts.get(i);
                    assertThat(part.duration())
                            .as("%s in %s", part.uri(), shape)
                            .isLessThanOrEqualTo(p.partTarget);
                    boolean last = i == s.parts.size() - 1;
                    if (!last) {
                        assertThat(part.duration())
                                .as("%s is not the last of segment %d", part.uri(), s.msn)
                                .isGreaterThanOrEqualTo(0.85 * p.partTarget);
                        checkedParts++;
                    }
                }
            }
        }
        assertThat(checkedParts).isGreaterThan(100);
        // The declared target stays near the configured one: whole frames plus a little slack.
        assertThat(snapshots.get(0).partTarget)
                .isBetween(shape.partTargetMs() * 0.85 / 1000, shape.partTargetMs() * 1.15 / 1000);
    }
}
