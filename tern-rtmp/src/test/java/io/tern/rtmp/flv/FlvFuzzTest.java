package io.tern.rtmp.flv;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.rtmp.MediaFixtures;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Arbitrary and mutated tags: no exception escapes, and each tag gives at most one bounded output. */
class FlvFuzzTest {
    @Property(tries = 3000)
    void arbitraryTagsNeverThrow(@ForAll byte[] tag, @ForAll boolean video, @ForAll long timestamp) {
        RecordingOutput out = new RecordingOutput();
        FlvDemuxer demuxer = new FlvDemuxer(out, 10_000);
        // Give both tracks a configuration first so that frame parsing is reached.
        byte[] avc = MediaFixtures.avcSequenceHeaderTag();
        byte[] aac = MediaFixtures.aacSequenceHeaderTag();
        demuxer.video(0, avc, 0, avc.length);
        demuxer.audio(0, aac, 0, aac.length);
        int before = out.all.size();

        String refusal = video
                ? demuxer.video(timestamp & 0xFFFFFFFFL, tag, 0, tag.length)
                : demuxer.audio(timestamp & 0xFFFFFFFFL, tag, 0, tag.length);

        assertThat(out.all.size() - before).isLessThanOrEqualTo(2); // a discontinuity and a frame at most
        for (AccessUnit unit : out.units) {
            assertThat(unit.sizeBytes()).isLessThanOrEqualTo(tag.length * 4);
            assertThat(unit.pts()).isGreaterThanOrEqualTo(unit.dts());
        }
        if (refusal != null) {
            assertThat(refusal).contains("not supported");
        }
    }

    @Property(tries = 2000)
    void mutatedFramesNeverThrow(@ForAll long seed) {
        Random random = new Random(seed);
        RecordingOutput out = new RecordingOutput();
        FlvDemuxer demuxer = new FlvDemuxer(out, 10_000);
        byte[] avc = MediaFixtures.avcSequenceHeaderTag();
        if (random.nextBoolean()) {
            avc[5 + random.nextInt(avc.length - 5)] = (byte) random.nextInt(256);
        }
        demuxer.video(0, avc, 0, avc.length);
        byte[] slice = new byte[1 + random.nextInt(200)];
        random.nextBytes(slice);
        byte[] tag = MediaFixtures.avcFrameTag(
                random.nextBoolean(), random.nextInt(), 1 << random.nextInt(3), random.nextBoolean(), slice);
        for (int i = 0; i < random.nextInt(4); i++) {
            tag[random.nextInt(tag.length)] = (byte) random.nextInt(256);
        }
        demuxer.video(random.nextInt(100_000), tag, 0, random.nextInt(tag.length + 1));
        assertThat(out.units.size()).isLessThanOrEqualTo(1);
    }

    @Property(tries = 2000)
    void arbitraryFlvFilesAndAggregatesEndInTagsOrAFormatError(@ForAll byte[] input) {
        int[] count = {0};
        try {
            FlvFile.readTags(input, 0, input.length, (type, ts, buf, offset, length) -> {
                assertThat(offset + length).isLessThanOrEqualTo(buf.length);
                count[0]++;
            });
        } catch (MediaFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
        assertThat(count[0]).isLessThanOrEqualTo(input.length / FlvFile.TAG_HEADER_BYTES);
    }
}
