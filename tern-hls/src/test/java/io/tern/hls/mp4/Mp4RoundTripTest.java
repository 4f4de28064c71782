package io.tern.hls.mp4;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.testing.TestMedia;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** What the muxer writes parses back, box by box, to exactly the samples it was given. */
class Mp4RoundTripTest {
    record In(byte[] data, int duration, boolean sync, int compositionOffset) {}

    @Test
    void initSegmentDescribesBothTracks() {
        Mp4Track video = Mp4Track.video(TestMedia.avc720p());
        Mp4Track audio = Mp4Track.audio(TestMedia.aac48k());

        Mp4Reader r =
                Mp4Reader.read(InitSegmentWriter.write(List.of(video, audio), InitSegmentWriter.FRAGMENTED_BRANDS));

        assertThat(r.topLevel).containsExactly("ftyp", "moov");
        assertThat(r.brands).containsExactly("iso6", "iso6", "mp41");
        Mp4Reader.Track v = r.tracks.get(Mp4Track.VIDEO_TRACK_ID);
        assertThat(v.timescale()).isEqualTo(90_000);
        assertThat(v.handler()).isEqualTo("vide");
        assertThat(v.sampleEntry()).isEqualTo("avc1");
        assertThat(v.decoderConfig()).isEqualTo(TestMedia.avc720p().record());
        assertThat(v.width()).isEqualTo(1280);
        assertThat(v.height()).isEqualTo(720);
        Mp4Reader.Track a = r.tracks.get(Mp4Track.AUDIO_TRACK_ID);
        assertThat(a.timescale()).isEqualTo(48_000);
        assertThat(a.handler()).isEqualTo("soun");
        assertThat(a.sampleEntry()).isEqualTo("mp4a");
        assertThat(a.decoderConfig()).isEqualTo(TestMedia.ASC_48K_STEREO);
        assertThat(a.channels()).isEqualTo(2);
        assertThat(a.sampleRate()).isEqualTo(48_000);
    }

    @Test
    void cmafHeaderCarriesTheCmafBrand() {
        Mp4Reader r = Mp4Reader.read(InitSegmentWriter.cmafHeader(Mp4Track.audio(TestMedia.aac44k())));

        assertThat(r.brands).containsExactly("iso6", "iso6", "cmfc", "mp41");
        assertThat(r.tracks.get(Mp4Track.AUDIO_TRACK_ID).channels()).isEqualTo(1);
    }

    @Property(tries = 200)
    void videoFragmentsParseBackToTheSamplesWritten(
            @ForAll("videoFragments") List<List<In>> fragments, @ForAll("decodeTimes") long start) {
        roundTrip(Mp4Track.video(TestMedia.avc720p()), fragments, start);
    }

    @Property(tries = 100)
    void audioFragmentsParseBackToTheSamplesWritten(
            @ForAll("audioFragments") List<List<In>> fragments, @ForAll("decodeTimes") long start) {
        roundTrip(Mp4Track.audio(TestMedia.aac48k()), fragments, start);
    }

    private static void roundTrip(Mp4Track track, List<List<In>> fragments, long start) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.writeBytes(InitSegmentWriter.cmafHeader(track));
        SampleRun run = new SampleRun();
        List<Mp4Reader.Sample> expected = new ArrayList<>();
        long dts = start;
        int sequence = 1;
        for (List<In> fragment : fragments) {
            long base = dts;
            for (In s : fragment) {
                int flags = track.type() == io.tern.media.TrackType.VIDEO ? SampleFlags.of(s.sync()) : SampleFlags.SYNC;
                int cto = track.type() == io.tern.media.TrackType.VIDEO ? s.compositionOffset() : 0;
                run.add(s.data(), s.duration(), flags, cto);
                expected.add(new Mp4Reader.Sample(track.trackId(), dts, s.duration(), cto, flags, s.data()));
                dts += s.duration();
            }
            byte[] chunk = FragmentWriter.write(sequence++, track, base, run);
            assertThat(run.duration()).isEqualTo(dts - base);
            run.clear();
            file.writeBytes(chunk);
        }

        Mp4Reader r = Mp4Reader.read(file.toByteArray());

        assertThat(r.samples(track.trackId())).containsExactlyElementsOf(expected);
        assertThat(r.fragments).extracting(Mp4Reader.Fragment::sequenceNumber).isSorted();
    }

    @Provide
    Arbitrary<Long> decodeTimes() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 1L << 40), Arbitraries.just(0L));
    }

    @Provide
    Arbitrary<List<List<In>>> videoFragments() {
        Arbitrary<In> sample = Combinators.combine(
                        Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300),
                        Arbitraries.integers().between(0, 9000),
                        Arbitraries.of(true, false),
                        Arbitraries.integers().between(0, 18000))
                .as(In::new);
        return sample.list().ofMinSize(1).ofMaxSize(12).list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<List<List<In>>> audioFragments() {
        Arbitrary<In> sample = Arbitraries.bytes()
                .array(byte[].class)
                .ofMinSize(1)
                .ofMaxSize(200)
                .map(b -> new In(b, 1024, true, 0));
        return sample.list().ofMinSize(1).ofMaxSize(8).list().ofMinSize(1).ofMaxSize(6);
    }
}
