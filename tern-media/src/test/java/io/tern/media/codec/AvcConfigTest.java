package io.tern.media.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.media.MediaFormatException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parameter sets captured from libx264 (ffmpeg 5.1, Debian 12), with emulation-prevention bytes. */
class AvcConfigTest {
    static final byte[] SPS_720P_HIGH = HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950");
    static final byte[] PPS_720P_HIGH = HexFormat.of().parseHex("68ef0fcb");
    static final byte[] SPS_360P_BASELINE =
            HexFormat.of().parseHex("6742c01ed900a02ff97011000003000100000300320f162e48");
    static final byte[] PPS_360P_BASELINE = HexFormat.of().parseHex("68cb83cb20");

    @Test
    void highProfileSpsGivesSizeRateAndCodecs() throws MediaFormatException {
        AvcConfig config = AvcConfig.fromParameterSets(List.of(SPS_720P_HIGH), List.of(PPS_720P_HIGH));

        assertThat(config.width()).isEqualTo(1280);
        assertThat(config.height()).isEqualTo(720);
        assertThat(config.frameRate()).isEqualTo(30.0);
        assertThat(config.codecs()).isEqualTo("avc1.64001f");
    }

    @Test
    void baselineSpsIsCroppedTo360Lines() throws MediaFormatException {
        // 640x360 is 23 macroblock rows (368 lines) cropped by 8: frame_cropping_flag must be honoured.
        AvcConfig config = AvcConfig.fromParameterSets(List.of(SPS_360P_BASELINE), List.of(PPS_360P_BASELINE));

        assertThat(config.width()).isEqualTo(640);
        assertThat(config.height()).isEqualTo(360);
        assertThat(config.frameRate()).isEqualTo(25.0);
        assertThat(config.codecs()).isEqualTo("avc1.42c01e");
    }

    @Test
    void recordRoundTripsWithFourByteLengths() throws MediaFormatException {
        AvcConfig built = AvcConfig.fromParameterSets(List.of(SPS_720P_HIGH), List.of(PPS_720P_HIGH));
        byte[] record = built.record();

        assertThat(record[0]).isEqualTo((byte) 1);
        assertThat(record[4] & 0x03).as("lengthSizeMinusOne").isEqualTo(3);
        AvcConfig parsed = AvcConfig.parseRecord(record, 0, record.length);
        assertThat(parsed).isEqualTo(built);
        assertThat(parsed.sps().get(0)).isEqualTo(SPS_720P_HIGH);
        assertThat(parsed.pps().get(0)).isEqualTo(PPS_720P_HIGH);
    }

    @Test
    void sourceLengthSizeIsReportedAndTheRecordIsRewrittenToFour() throws MediaFormatException {
        byte[] record = AvcConfig.fromParameterSets(List.of(SPS_720P_HIGH), List.of(PPS_720P_HIGH))
                .record()
                .clone();
        record[4] = (byte) (0xFC | 1); // 2-byte NAL unit lengths

        AvcConfig parsed = AvcConfig.parseRecord(record, 0, record.length);

        assertThat(parsed.sourceNalLengthSize()).isEqualTo(2);
        assertThat(parsed.record()[4] & 0x03).isEqualTo(3);
    }

    @Test
    void everyTruncationOfTheRecordIsRejected() throws MediaFormatException {
        byte[] record = AvcConfig.fromParameterSets(List.of(SPS_720P_HIGH), List.of(PPS_720P_HIGH))
                .record();
        for (int length = 0; length < record.length; length++) {
            byte[] truncated = Arrays.copyOf(record, length);
            int n = length;
            assertThatThrownBy(() -> AvcConfig.parseRecord(truncated, 0, n))
                    .as("length %d", n)
                    .isInstanceOf(MediaFormatException.class);
        }
    }

    @Test
    void recordWithoutParameterSetsIsRejected() {
        byte[] empty = {1, 0x64, 0, 0x1f, (byte) 0xFF, (byte) 0xE0, 0};
        assertThatThrownBy(() -> AvcConfig.parseRecord(empty, 0, empty.length))
                .isInstanceOf(MediaFormatException.class)
                .hasMessageContaining("needs an SPS and a PPS");
    }

    @Test
    void aPpsInTheSpsSlotIsRejected() {
        assertThatThrownBy(() -> AvcConfig.fromParameterSets(List.of(PPS_720P_HIGH), List.of(PPS_720P_HIGH)))
                .isInstanceOf(MediaFormatException.class);
    }
}
