package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Timing and windows (§6.2.1, §6.2.2): TARGETDURATION is constant, targets are configurable,
 * parts are listed within the last three target durations and stay downloadable three more,
 * removed segments stay downloadable for a playlist's duration, and memory is bounded.
 */
class WindowsAndRetentionTest {
    private final SyntheticStream stream = new SyntheticStream();

    private static double listed(M3u8 p) {
        return p.segments.stream()
                .mapToDouble(s -> s.complete()
                        ? s.duration
                        : s.parts.stream().mapToDouble(M3u8.PartTag::duration).sum())
                .sum();
    }

    @Test
    void targetDurationIsConstantAndTheWindowStaysWithinItsBounds() {
        Harness h = Harness.av();
        Set<Integer> targets = new HashSet<>();
        List<Double> durations = new ArrayList<>();
        h.afterEach = au -> {
            M3u8 v = h.playlistIfReady(TrackType.VIDEO);
            if (v != null) {
                targets.add(v.targetDuration);
                durations.add(listed(v));
            }
        };
        SyntheticStream s = new SyntheticStream();
        s.gopFrames = 45; // 1.5 s GOPs: segments of 1.5 and 3 s would round differently
        h.feed(s.generate(0, 60_000));

        assertThat(targets).containsExactly(2);
        double max = durations.stream().mapToDouble(d -> d).max().orElseThrow();
        double last = durations.get(durations.size() - 1);
        assertThat(last).isGreaterThanOrEqualTo(24.0); // playlistWindowMs
        assertThat(max).isLessThanOrEqualTo(24.0 + 2 * 2.5);
        for (M3u8.Seg seg : h.playlist(TrackType.VIDEO).completeSegments()) {
            assertThat(Math.round(seg.duration)).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void partAndSegmentTargetsAreConfigurable() {
        PackagerConfig config = PackagerConfig.defaults("c")
                .withPartTargetMs(500)
                .withSegmentTargetMs(4000)
                .withPlaylistWindowMs(20_000);
        Harness h = new Harness(config, StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        h.feed(stream.generate(0, 20_000));

        M3u8 v = h.playlist(TrackType.VIDEO);
        assertThat(v.targetDuration).isEqualTo(4);
        assertThat(v.partTarget).isBetween(0.5, 0.51);
        assertThat(v.completeSegments()).allSatisfy(s -> assertThat(s.duration).isEqualTo(4.0));
        List<M3u8.Seg> complete = v.completeSegments();
        assertThat(complete.get(complete.size() - 1).parts).hasSize(8);
        assertThatIllegalArgument(() -> PackagerConfig.defaults("c").withPartTargetMs(3000))
                .contains("segmentTargetMs=2000");
        assertThatIllegalArgument(() -> PackagerConfig.defaults("c").withPlaylistWindowMs(5000))
                .contains("playlistWindowMs=5000");
        assertThatIllegalArgument(() -> PackagerConfig.defaults("bad id")).contains("instanceId=bad id");
    }

    private static org.assertj.core.api.AbstractStringAssert<?> assertThatIllegalArgument(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return assertThat(e.getMessage());
        }
        throw new AssertionError("no IllegalArgumentException");
    }

    @Test
    void partsAreListedNearTheEndOnlyAndStayDownloadableThreeTargetDurationsMore() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 20_000));
        M3u8 v = h.playlist(TrackType.VIDEO);
        double end = listed(v);
        double withParts = 0;
        double t = 0;
        double firstPartAt = -1;
        for (M3u8.Seg s : v.segments) {
            double d = s.complete()
                    ? s.duration
                    : s.parts.stream().mapToDouble(M3u8.PartTag::duration).sum();
            if (!s.parts.isEmpty()) {
                if (firstPartAt < 0) {
                    firstPartAt = t;
                }
                withParts += d;
            } else {
                assertThat(firstPartAt)
                        .as("parts are listed from some point to the end")
                        .isNegative();
            }
            t += d;
        }
        // §6.2.2: no listed part further than three target durations from the end, and the
        // parts of at least the last complete segment are there for players at the live edge.
        assertThat(end - firstPartAt).isLessThanOrEqualTo(3 * v.targetDuration + 0.001);
        assertThat(end - firstPartAt).isGreaterThanOrEqualTo(v.targetDuration);
        assertThat(withParts).isEqualTo(end - firstPartAt, org.assertj.core.data.Offset.offset(0.001));
        assertThat(v.segments.stream().filter(seg -> !seg.parts.isEmpty()).count())
                .isLessThanOrEqualTo(3);

        // Follow the oldest listed part: unlisted, then still served for three target durations.
        String oldest = v.parts().get(0).uri();
        long unlistedAtNs = -1;
        for (long ms = 20_000; ms < 40_000; ms += 100) {
            h.feed(stream.generate(ms, 100));
            boolean listed = h.playlist(TrackType.VIDEO).parts().stream()
                    .anyMatch(p -> p.uri().equals(oldest));
            ObjectAnswer a = h.packager.object(oldest, h.nowNs);
            if (!listed && unlistedAtNs < 0) {
                unlistedAtNs = h.nowNs;
            }
            if (unlistedAtNs >= 0 && h.nowNs - unlistedAtNs < 3L * v.targetDuration * 1_000_000_000L) {
                assertThat(a)
                        .as("%s %d ms after it left the playlist", oldest, (h.nowNs - unlistedAtNs) / 1_000_000)
                        .isInstanceOf(ObjectAnswer.Found.class);
            }
            if (a instanceof ObjectAnswer.NotFound) {
                assertThat(unlistedAtNs).isPositive();
                return;
            }
        }
        throw new AssertionError(oldest + " was never forgotten");
    }

    @Test
    void aSegmentRemovedFromThePlaylistStaysDownloadableForAPlaylistLengthThenGoes() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 30_000));
        M3u8 v = h.playlist(TrackType.VIDEO);
        assertThat(v.mediaSequence).isPositive();
        String removed = "video-0.m4s";
        assertThat(h.packager.object(removed, h.nowNs)).isInstanceOf(ObjectAnswer.Found.class);
        h.feed(stream.generate(30_000, 30_000));
        assertThat(h.packager.object(removed, h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        assertThat(h.packager.object("video-p0.m4s", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        // Memory is bounded by the windows: about two playlists of media, not the whole stream.
        long perSecond = h.packager.stats().chunkBytes() / 60;
        assertThat(h.packager.retainedBytes()).isLessThan(perSecond * 60);
    }

    @Test
    void everyObjectThatLeavesItsWindowIsRetiredOnceAndIsNoLongerServed() {
        Harness h = Harness.av();
        h.feed(stream.generate(0, 60_000));
        List<String> retired = new ArrayList<>();
        for (HlsEvent.ObjectRetired r : h.events(HlsEvent.ObjectRetired.class)) {
            retired.add(r.object().name());
        }
        assertThat(retired).contains("video-0.m4s", "video-p0.m4s", "audio-0.m4s");
        assertThat(retired).doesNotHaveDuplicates();
        for (String name : retired) {
            assertThat(h.packager.object(name, h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        }
    }

    @Test
    void maxRetainedBytesBoundsTheStreamDownToTheMinimalWindow() {
        PackagerConfig config = PackagerConfig.defaults("m").withMaxRetainedBytes(2L << 20);
        Harness h = new Harness(config, StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        SyntheticStream big = new SyntheticStream();
        big.frameBytes = 20_000; // ~5 Mbit/s: 24 s of window would be 15 MB
        big.keyframeBytes = 60_000;
        long max = 0;
        for (int ms = 0; ms < 40_000; ms += 1000) {
            h.feed(big.generate(ms, 1000));
            max = Math.max(max, h.packager.retainedBytes());
        }
        assertThat(h.packager.stats().memoryDrops()).isPositive();
        // The spec's floor (three target durations) is kept: about 4 MB here, above the cap.
        M3u8 v = h.playlist(TrackType.VIDEO);
        assertThat(listed(v)).isGreaterThanOrEqualTo(6.0);
        assertThat(listed(v)).isLessThan(10.0);
        assertThat(max).isLessThan(8L << 20);
    }
}
