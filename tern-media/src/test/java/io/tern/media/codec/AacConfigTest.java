package io.tern.media.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.media.MediaFormatException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class AacConfigTest {
    @Test
    void aacLowComplexityStereo48k() throws MediaFormatException {
        byte[] asc = {0x11, (byte) 0x90};

        AacConfig config = AacConfig.parse(asc, 0, asc.length);

        assertThat(config.objectType()).isEqualTo(2);
        assertThat(config.sampleRateHz()).isEqualTo(48000);
        assertThat(config.channels()).isEqualTo(2);
        assertThat(config.codecs()).isEqualTo("mp4a.40.2");
        assertThat(config.frameDurationTicks()).isEqualTo(1920);
    }

    @Test
    void adtsHeaderFromFfmpegGivesTheSameConfigAsItsAudioSpecificConfig() throws MediaFormatException {
        // The first 7 bytes of `ffmpeg -f lavfi -i sine=sample_rate=48000 -ac 2 -c:a aac -f adts`.
        byte[] adts = HexFormat.of().parseHex("fff14c8024fffc");

        AacConfig fromAdts = AacConfig.fromAdts(adts, 0, adts.length);

        assertThat(fromAdts.audioSpecificConfig()).containsExactly(0x11, 0x90);
        assertThat(fromAdts).isEqualTo(AacConfig.parse(new byte[] {0x11, (byte) 0x90}, 0, 2));
    }

    @Test
    void heAacUsesTheEscapedObjectTypeAndExplicitRate() throws MediaFormatException {
        // object type 31 + 6-bit escape (32 + 10 = 42), rate index 15 with an explicit 24-bit rate.
        // bits: 11111 001010 1111 000000001011101110000000 0010 ...
        long bits = 0b11111L;
        bits = (bits << 6) | 10;
        bits = (bits << 4) | 15;
        bits = (bits << 24) | 48000;
        bits = (bits << 4) | 2;
        bits <<= 56 - 43;
        byte[] asc = new byte[7];
        for (int i = 0; i < 7; i++) {
            asc[i] = (byte) (bits >>> (48 - 8 * i));
        }

        AacConfig config = AacConfig.parse(asc, 0, asc.length);

        assertThat(config.objectType()).isEqualTo(42);
        assertThat(config.sampleRateHz()).isEqualTo(48000);
        assertThat(config.channels()).isEqualTo(2);
    }

    @Test
    void reservedRateIndexAndTruncationAreRejected() {
        assertThatThrownBy(() -> AacConfig.parse(new byte[] {0x16, (byte) 0x90}, 0, 2)) // index 13
                .isInstanceOf(MediaFormatException.class);
        assertThatThrownBy(() -> AacConfig.parse(new byte[] {0x11}, 0, 1)).isInstanceOf(MediaFormatException.class);
        assertThatThrownBy(() -> AacConfig.fromAdts(new byte[] {0, 0, 0, 0, 0, 0, 0}, 0, 7))
                .isInstanceOf(MediaFormatException.class);
    }
}
