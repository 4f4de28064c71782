package io.tern.hls.packager;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.mp4.Mp4Reader;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.record.RecordingAction;
import io.tern.hls.record.StreamRecorder;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.testing.Harness;
import io.tern.hls.testing.M3u8;
import io.tern.hls.testing.SyntheticStream;
import io.tern.hls.testing.TestMedia;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * {@link RenditionMode#MUXED}: one rendition carrying video and audio. Its parts and segments are
 * cut where the video's are, each part is one fragment with both tracks, and each audio frame
 * lands in the part holding its middle, whatever order the ingest delivered the tracks in.
 */
class MuxedRenditionTest {
    private static Harness muxed() {
        Harness h = new Harness(
                PackagerConfig.defaults("m1").withRenditions(RenditionMode.MUXED), StreamLayout.VIDEO_AND_AUDIO);
        h.configure(TestMedia.avc720p(), TestMedia.aac48k());
        return h;
    }

    @Test
    void theMultivariantPlaylistHasOneVariantWithBothCodecsAndNoAudioGroup() {
        Harness h = muxed();
        h.feed(new SyntheticStream().generate(0, 6000));

        M3u8 mv = h.multivariant();
        assertThat(mv.media).isEmpty();
        assertThat(mv.streamInfs).hasSize(1);
        assertThat(mv.streamInfs.get(0).get("CODECS")).isEqualTo("avc1.64001f,mp4a.40.2");
        assertThat(mv.streamInfs.get(0)).doesNotContainKey("AUDIO");
        assertThat(mv.variantUris).containsExactly("m1/video.m3u8");

        assertThat(h.request(TrackType.AUDIO, "")).isInstanceOf(PlaylistAnswer.Error.class);
        assertThat(h.packager.object("audio-init-0.mp4", h.nowNs)).isInstanceOf(ObjectAnswer.NotFound.class);
        M3u8 p = h.playlist(TrackType.VIDEO);
        assertThat(p.renditionReports).isEmpty();
    }

    @Test
    void theInitSegmentHasBothTracksAndEveryPartIsOneFragmentWithBoth() {
        Harness h = muxed();
        h.feed(new SyntheticStream().generate(0, 6000));
        M3u8 p = h.playlist(TrackType.VIDEO);

        Mp4Reader init = Mp4Reader.read(h.bytes(p.maps.get(0)));
        assertThat(init.tracks).containsOnlyKeys(Mp4Track.VIDEO_TRACK_ID, Mp4Track.AUDIO_TRACK_ID);
        assertThat(init.tracks.get(Mp4Track.AUDIO_TRACK_ID).sampleRate()).isEqualTo(48_000);

        assertThat(p.parts()).hasSizeGreaterThan(10);
        for (M3u8.PartTag part : p.parts()) {
            Mp4Reader r = Mp4Reader.read(h.bytes(part.uri()));
            assertThat(r.fragments).as(part.uri()).hasSize(1);
            assertThat(r.samples(Mp4Track.VIDEO_TRACK_ID)).as(part.uri()).isNotEmpty();
            assertThat(r.samples(Mp4Track.AUDIO_TRACK_ID)).as(part.uri()).isNotEmpty();
            // the part's duration is its video's
            long videoTicks = r.samples(Mp4Track.VIDEO_TRACK_ID).stream()
                    .mapToLong(Mp4Reader.Sample::duration)
                    .sum();
            assertThat(part.duration()).isCloseTo(videoTicks / 90_000.0, Offset.offset(1e-5));
        }
    }

    @Test
    void eachAudioFrameIsInThePartHoldingItsMiddleAndNoneIsLostOrRepeated() {
        Harness h = muxed();
        List<AccessUnit> units = new SyntheticStream().generate(0, 8000);
        h.feed(units);
        h.end();
        M3u8 p = h.playlist(TrackType.VIDEO);

        long audioSamples = 0;
        long nextAudioDts = 0;
        int fragments = 0;
        for (M3u8.Seg seg : p.segments) {
            // a segment is its parts, one fragment each
            Mp4Reader whole = Mp4Reader.read(h.bytes(seg.uri));
            assertThat(whole.samples(Mp4Track.VIDEO_TRACK_ID).get(0).sync())
                    .as("segment %d starts with a keyframe", seg.msn)
                    .isTrue();
            for (Mp4Reader.Fragment f : whole.fragments) {
                List<Mp4Reader.Sample> video = f.samples().stream()
                        .filter(x -> x.trackId() == Mp4Track.VIDEO_TRACK_ID)
                        .toList();
                long start = video.get(0).dts();
                long end = start
                        + video.stream().mapToLong(Mp4Reader.Sample::duration).sum();
                boolean last = seg == p.segments.getLast() && f == whole.fragments.getLast();
                for (Mp4Reader.Sample a : f.samples()) {
                    if (a.trackId() != Mp4Track.AUDIO_TRACK_ID) {
                        continue;
                    }
                    assertThat(a.dts()).as("audio contiguous").isEqualTo(nextAudioDts);
                    nextAudioDts = a.dts() + a.duration();
                    long middle90 = (a.dts() * 2 + a.duration()) * 90_000 / 48_000 / 2;
                    assertThat(middle90)
                            .as("segment %d audio at %d", seg.msn, a.dts())
                            .isGreaterThanOrEqualTo(start);
                    if (!last) { // the stream's last part also takes the audio past the last frame
                        assertThat(middle90)
                                .as("segment %d audio at %d", seg.msn, a.dts())
                                .isLessThan(end);
                    }
                    audioSamples++;
                }
                fragments++;
            }
        }
        assertThat(fragments).isGreaterThan(35); // 8 s of 200 ms parts
        long audioIn = units.stream().filter(u -> u.track() == TrackType.AUDIO).count();
        assertThat(audioSamples).isEqualTo(audioIn);
    }

    @Test
    void audioArrivingLateOrEarlyGivesTheSameParts() {
        List<AccessUnit> inOrder = new SyntheticStream().generate(0, 8000);
        Map<String, byte[]> reference = parts(inOrder);
        // audio delivered 150 ms after the video beside it, then 40 ms before it
        for (long shiftTicks : new long[] {150 * 90, -40 * 90}) {
            List<AccessUnit> shifted = new ArrayList<>(inOrder);
            shifted.sort(Comparator.comparingLong(au -> au.dts() + (au.track() == TrackType.AUDIO ? shiftTicks : 0)));
            Map<String, byte[]> parts = parts(shifted);
            assertThat(parts.keySet()).as("shift %d", shiftTicks).isEqualTo(reference.keySet());
            for (String name : reference.keySet()) {
                assertThat(parts.get(name))
                        .as("%s, audio shifted %d", name, shiftTicks)
                        .isEqualTo(reference.get(name));
            }
        }
    }

    private static Map<String, byte[]> parts(List<AccessUnit> units) {
        Harness h = muxed();
        h.feed(units);
        h.end();
        Map<String, byte[]> out = new LinkedHashMap<>();
        M3u8 p = h.playlist(TrackType.VIDEO);
        for (M3u8.PartTag part : p.parts()) {
            out.put(part.uri(), h.bytes(part.uri()));
        }
        return out;
    }

    @Test
    void theGateHoldsVideoAtMostASecondWhenAudioStops() {
        Harness h = muxed();
        SyntheticStream s = new SyntheticStream();
        h.feed(s.generate(0, 3000));
        s.audio = false;
        h.feed(s.generate(3000, 3000)); // video only from here on
        M3u8 p = h.playlist(TrackType.VIDEO);
        double listed = p.segments.stream()
                .mapToDouble(seg -> seg.complete()
                        ? seg.duration
                        : seg.parts.stream().mapToDouble(M3u8.PartTag::duration).sum())
                .sum();
        // 6 s went in: at most the gate's second and the part being written are not listed yet
        assertThat(listed).isGreaterThan(6.0 - MuxGate.MAX_HELD_TICKS / 90_000.0 - 0.5);
    }

    @Test
    void eachPartIsWrittenAsOneChunkWhenItIsCutSoTheHintedPartGoesWhole() {
        Harness h = muxed();
        h.feed(new SyntheticStream().generate(0, 4000));
        h.end();
        long listedParts = h.playlist(TrackType.VIDEO).parts().size();
        // one chunk per part: nothing of the hinted part exists to stream before it is complete
        assertThat(h.events(HlsEvent.ChunkWritten.class)).hasSize((int) listedParts);
    }

    @Test
    void theRecordingOfAMuxedStreamGetsEveryChunkWithBothTracks() {
        Harness h = muxed();
        h.feed(new SyntheticStream().generate(0, 4000));
        h.end();
        List<HlsEvent.ChunkWritten> chunks = h.events(HlsEvent.ChunkWritten.class);
        assertThat(chunks).isNotEmpty().allSatisfy(c -> {
            assertThat(c.track()).isEqualTo(TrackType.VIDEO);
            assertThat(c.mp4Tracks()).hasSize(2);
        });
        var recorder = new StreamRecorder("cam", StreamLayout.VIDEO_AND_AUDIO, 60_000);
        h.events.forEach(recorder::onEvent);
        List<RecordingAction> actions = new ArrayList<>();
        for (RecordingAction a; (a = recorder.poll()) != null; ) {
            actions.add(a);
        }
        assertThat(actions.getFirst()).isInstanceOf(RecordingAction.Open.class);
        assertThat(actions.getLast()).isInstanceOf(RecordingAction.Close.class);
        assertThat(actions.stream()
                        .filter(RecordingAction.Append.class::isInstance)
                        .count())
                .isEqualTo(chunks.size());
        Mp4Reader init = Mp4Reader.read(((RecordingAction.Open) actions.getFirst()).initSegment());
        assertThat(init.tracks).containsOnlyKeys(Mp4Track.VIDEO_TRACK_ID, Mp4Track.AUDIO_TRACK_ID);
    }
}
