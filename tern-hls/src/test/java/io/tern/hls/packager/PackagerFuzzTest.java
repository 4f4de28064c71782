package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.Objects;
import io.tern.hls.testing.TestMedia;
import io.tern.media.TrackType;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever an ingest hands over (timestamps that stall, jump, go backwards, keyframes anywhere,
 * odd sizes, configuration changes) the packager throws nothing, lists only well-formed objects
 * within PART-TARGET and TARGETDURATION, and answers any query string; with separate renditions
 * and muxed.
 */
class PackagerFuzzTest {
    /** One step of a hostile ingest. */
    record Step(int kind, long deltaTicks, boolean keyframe, int size, long ptsOffset) {}

    @Property(tries = 60)
    void hostileIngestNeverBreaksTheOutput(@ForAll("steps") List<Step> steps, @ForAll RenditionMode mode) {
        Harness h = new Harness(PackagerConfig.defaults("t1").withRenditions(mode), StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        long video = 0;
        long audio = 0;
        for (Step s : steps) {
            switch (s.kind()) {
                case 0, 1, 2 -> {
                    video += s.deltaTicks();
                    h.feed(List.of(TestMedia.video(video, video + s.ptsOffset(), s.keyframe(), s.size(), (int) video)));
                }
                case 3, 4, 5 -> {
                    audio += s.deltaTicks() / 2;
                    h.feed(List.of(TestMedia.audio(audio, Math.max(1, s.size() % 800), (int) audio)));
                }
                case 6 -> h.configure(s.keyframe() ? TestMedia.avc360p() : TestMedia.avc720p());
                case 7 -> h.configure(s.keyframe() ? TestMedia.aac44k() : TestMedia.aac48k());
                default -> h.advance(s.deltaTicks() * 10_000);
            }
        }
        for (TrackType t : mode == RenditionMode.MUXED ? List.of(TrackType.VIDEO) : List.of(TrackType.values())) {
            M3u8 p = h.playlistIfReady(t);
            if (p == null) {
                continue;
            }
            for (M3u8.Seg seg : p.segments) {
                for (M3u8.PartTag part : seg.parts) {
                    assertThat(part.duration()).isLessThanOrEqualTo(p.partTarget);
                }
                if (seg.complete()) {
                    assertThat(Math.round(seg.duration)).isLessThanOrEqualTo(p.targetDuration);
                }
            }
            Objects.assertWellFormed(h, t);
        }
        h.end();
        assertThat(h.packager.heldRequests()).isZero();
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Long> delta = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, Arbitraries.longs().between(2000, 4000)),
                net.jqwik.api.Tuple.of(2, Arbitraries.longs().between(-200_000, 0)),
                net.jqwik.api.Tuple.of(2, Arbitraries.longs().between(50_000, 500_000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(0L)));
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.frequency(
                                net.jqwik.api.Tuple.of(30, 0),
                                net.jqwik.api.Tuple.of(30, 3),
                                net.jqwik.api.Tuple.of(1, 6),
                                net.jqwik.api.Tuple.of(1, 7),
                                net.jqwik.api.Tuple.of(1, 8)),
                        delta,
                        Arbitraries.frequency(net.jqwik.api.Tuple.of(1, true), net.jqwik.api.Tuple.of(12, false)),
                        Arbitraries.integers().between(1, 20_000),
                        Arbitraries.longs().between(0, 9000))
                .as(Step::new);
        return step.list().ofMinSize(50).ofMaxSize(1500);
    }

    @Property(tries = 500)
    void anyQueryStringGetsAnAnswer(@ForAll("queries") String query) {
        PlaylistRequest.Parsed parsed = PlaylistRequest.parse(query);
        assertThat(parsed.ok()).isEqualTo(parsed.request() != null);
        Harness h = Harness.av();
        h.feed(new io.tern.hls.testing.SyntheticStream().generate(0, 2_500));
        PlaylistAnswer a = h.request(TrackType.VIDEO, query);
        assertThat(a).isNotNull();
        if (a instanceof PlaylistAnswer.Error e) {
            assertThat(e.status()).isIn(400, 503);
        }
    }

    @Provide
    Arbitrary<String> queries() {
        Arbitrary<String> key = Arbitraries.of("_HLS_msn", "_HLS_part", "_HLS_skip", "_HLS_x", "token", "");
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.longs().between(-5, 30).map(String::valueOf),
                Arbitraries.of("YES", "v2", "no", "", "999999999999999999999"),
                Arbitraries.strings().ofMaxLength(6));
        Arbitrary<String> pair =
                Combinators.combine(key, value, Arbitraries.of("=", "", "==")).as((k, v, eq) -> k + eq + v);
        return pair.list().ofMaxSize(5).map(l -> String.join("&", l));
    }
}
