package io.tern.rtmp.flv;

import static io.tern.rtmp.MediaFixtures.aacFrameTag;
import static io.tern.rtmp.MediaFixtures.aacSequenceHeaderTag;
import static io.tern.rtmp.MediaFixtures.avcFrameTag;
import static io.tern.rtmp.MediaFixtures.avcSequenceHeaderTag;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.rtmp.MediaFixtures;
import io.tern.rtmp.bytes.ByteWriter;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlvDemuxerTest {
    private final RecordingOutput out = new RecordingOutput();
    private final FlvDemuxer demuxer = new FlvDemuxer(out, 10_000);

    private String video(long ts, byte[] tag) {
        return demuxer.video(ts, tag, 0, tag.length);
    }

    private String audio(long ts, byte[] tag) {
        return demuxer.audio(ts, tag, 0, tag.length);
    }

    @Test
    void avcSequenceHeaderGivesTheConfigurationOnce() {
        video(0, avcSequenceHeaderTag());
        video(0, avcSequenceHeaderTag());

        assertThat(out.configs).hasSize(1);
        AvcConfig config = (AvcConfig) out.configs.get(0);
        assertThat(config.width()).isEqualTo(1280);
        assertThat(config.height()).isEqualTo(720);
        assertThat(config.codecs()).isEqualTo("avc1.64001f");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void framesBecomeFourByteLengthAccessUnitsWithoutDelimiters(int lengthSize) {
        byte[] record = avcSequenceHeaderTag();
        record[5 + 4] = (byte) (0xFC | (lengthSize - 1));
        video(0, record);
        byte[] slice = {0x65, 1, 2, 3};

        assertThat(video(1000, avcFrameTag(true, 66, lengthSize, true, slice))).isNull();

        AccessUnit unit = out.units.get(0);
        assertThat(HexFormat.of().formatHex(unit.data())).isEqualTo("0000000465010203");
        assertThat(unit.track()).isEqualTo(TrackType.VIDEO);
        assertThat(unit.dts()).isEqualTo(1000 * 90);
        assertThat(unit.pts()).as("DTS plus the composition time").isEqualTo(1066 * 90);
        assertThat(unit.keyframe()).isTrue();
    }

    @Test
    void aKeyframeIsAFrameWithAnIdrSlice() {
        video(0, avcSequenceHeaderTag());
        video(0, avcFrameTag(false, 0, 4, false, new byte[] {0x65, 9}));
        video(33, avcFrameTag(true, 0, 4, false, new byte[] {0x41, 9}));

        assertThat(out.units).extracting(AccessUnit::keyframe).containsExactly(true, false);
        assertThat(demuxer.keyframes()).isEqualTo(1);
    }

    @Test
    void aNegativeCompositionTimeIsRaisedToZero() {
        video(0, avcSequenceHeaderTag());
        video(100, avcFrameTag(true, -33, 4, false, new byte[] {0x65}));

        assertThat(out.units.get(0).pts()).isEqualTo(out.units.get(0).dts());
        assertThat(demuxer.negativeCompositionOffsets()).isEqualTo(1);
    }

    @Test
    void aacSequenceHeaderAndRawFrames() {
        audio(0, aacSequenceHeaderTag());
        audio(21, aacFrameTag(new byte[] {0x21, 0x10, 0x05}));

        AacConfig config = (AacConfig) out.configs.get(0);
        assertThat(config.codecs()).isEqualTo("mp4a.40.2");
        assertThat(config.sampleRateHz()).isEqualTo(48_000);
        AccessUnit unit = out.units.get(0);
        assertThat(unit.data()).containsExactly(0x21, 0x10, 0x05);
        assertThat(unit.dts()).isEqualTo(21 * 90);
        assertThat(unit.pts()).isEqualTo(unit.dts());
        assertThat(unit.keyframe()).isTrue();
    }

    @Test
    void aTagInsideALargerBufferIsReadAtItsOffset() {
        byte[] tag = aacSequenceHeaderTag();
        byte[] buffer = new byte[tag.length + 10];
        System.arraycopy(tag, 0, buffer, 7, tag.length);

        demuxer.audio(0, buffer, 7, tag.length);

        assertThat(out.configs).hasSize(1);
    }

    @Test
    void framesBeforeTheirSequenceHeaderAreDroppedAndCounted() {
        video(0, avcFrameTag(true, 0, 4, false, new byte[] {0x65}));
        audio(0, aacFrameTag(new byte[] {1}));

        assertThat(out.units).isEmpty();
        assertThat(out.dropped)
                .containsExactly(
                        "video frame before the AVC sequence header", "audio frame before the AAC sequence header");
        assertThat(demuxer.dropped()).isEqualTo(2);
    }

    @Test
    void aFrameWhoseNalLengthOverrunsIsDropped() {
        video(0, avcSequenceHeaderTag());
        byte[] tag = avcFrameTag(true, 0, 4, false, new byte[] {0x65, 1});
        tag[8] = 9; // the NAL claims 9 bytes, 2 follow

        assertThat(video(0, tag)).isNull();
        assertThat(out.units).isEmpty();
        assertThat(out.dropped.get(0)).startsWith("video frame: NAL unit of 9 bytes overruns");
    }

    @Test
    void enhancedRtmpVideoIsRefusedNamingItsFourCc() {
        ByteWriter tag = new ByteWriter(16);
        tag.u8(0x80 | (1 << 4)).bytes("hvc1".getBytes()).u8(0);

        String refusal = demuxer.video(0, tag.array(), 0, tag.length());

        assertThat(refusal)
                .isEqualTo("Enhanced RTMP video (FourCC 'hvc1') is not supported; publish H.264 (FLV codec id 7)");
        byte[] av1 = MediaFixtures.concat(new byte[] {(byte) 0x90}, "av01".getBytes());
        assertThat(video(0, av1)).contains("'av01'");
    }

    @Test
    void enhancedRtmpAudioAndOtherCodecsAreRefused() {
        assertThat(audio(0, MediaFixtures.concat(new byte[] {(byte) 0x90}, "Opus".getBytes())))
                .isEqualTo("Enhanced RTMP audio (FourCC 'Opus') is not supported; publish AAC (FLV sound format 10)");
        assertThat(audio(0, new byte[] {0x2F, 0})).isEqualTo("audio MP3 is not supported; publish AAC");
        assertThat(video(0, new byte[] {0x12, 0})).isEqualTo("video Sorenson H.263 is not supported; publish H.264");
        assertThat(video(0, new byte[] {0x1C, 0})).contains("HEVC");
    }

    @Test
    void timestampsThatGoBackOrJumpAreReportedBeforeTheirFrame() {
        audio(0, aacSequenceHeaderTag());
        audio(1000, aacFrameTag(new byte[] {1}));
        audio(900, aacFrameTag(new byte[] {2}));
        audio(921, aacFrameTag(new byte[] {3}));
        audio(60_000, aacFrameTag(new byte[] {4}));

        assertThat(out.discontinuities).containsExactly("AUDIO back 90000->81000", "AUDIO jump 82890->5400000");
        assertThat(out.all.get(2)).as("before its frame").isEqualTo("AUDIO back 90000->81000");
        assertThat(out.units).extracting(AccessUnit::dts).containsExactly(90_000L, 81_000L, 82_890L, 5_400_000L);
        assertThat(demuxer.discontinuities()).isEqualTo(2);
    }

    @Test
    void the32BitWrapOfRtmpTimestampsIsNotADiscontinuity() {
        audio(0, aacSequenceHeaderTag());
        audio(0xFFFFFFF0L, aacFrameTag(new byte[] {1}));
        audio(0x0000000AL, aacFrameTag(new byte[] {2}));

        assertThat(out.discontinuities).isEmpty();
        assertThat(out.units.get(1).dts() - out.units.get(0).dts()).isEqualTo(26 * 90);
    }

    @Test
    void tracksAreJudgedApart() {
        video(0, avcSequenceHeaderTag());
        audio(0, aacSequenceHeaderTag());
        video(1000, avcFrameTag(true, 0, 4, false, new byte[] {0x65}));
        audio(990, aacFrameTag(new byte[] {1}));
        video(1033, avcFrameTag(false, 0, 4, false, new byte[] {0x41}));
        audio(1011, aacFrameTag(new byte[] {1}));

        assertThat(out.discontinuities)
                .as("audio slightly behind video is normal")
                .isEmpty();
    }

    @Test
    void shortAndEmptyTagsAreHarmless() {
        for (byte[] tag : new byte[][] {{}, {0x17}, {0x17, 1, 0}}) {
            assertThat(video(0, Arrays.copyOf(tag, tag.length))).isNull();
        }
        for (byte[] tag : new byte[][] {{}, {(byte) 0xAF}, {(byte) 0xAF, 1}}) {
            assertThat(audio(0, Arrays.copyOf(tag, tag.length))).isNull();
        }
        assertThat(out.units).isEmpty();
    }
}
