package io.tern.media.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.media.MediaFormatException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Arbitrary and mutated input to every parser ends in a value or a MediaFormatException, nothing else. */
class CodecConfigFuzzTest {
    @Property(tries = 3000)
    void recordParserOnlyThrowsFormatErrors(@ForAll("mutatedRecords") byte[] input) {
        try {
            AvcConfig config = AvcConfig.parseRecord(input, 0, input.length);
            assertThat(config.width()).isPositive();
            assertThat(config.height()).isPositive();
        } catch (MediaFormatException expected) {
            assertThat(expected).hasMessageNotContaining("null");
        }
    }

    @Property(tries = 3000)
    void spsParserOnlyThrowsFormatErrors(@ForAll("mutatedSps") byte[] input) {
        try {
            SequenceParameterSet sps = SequenceParameterSet.parse(input, 0, input.length);
            assertThat(sps.width()).isBetween(1, 16384);
            assertThat(sps.height()).isBetween(1, 32768);
        } catch (MediaFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Property(tries = 2000)
    void audioParsersOnlyThrowFormatErrors(@ForAll byte[] input) {
        try {
            assertThat(AacConfig.parse(input, 0, input.length).sampleRateHz()).isPositive();
        } catch (MediaFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
        try {
            assertThat(AacConfig.fromAdts(input, 0, input.length).sampleRateHz())
                    .isPositive();
        } catch (MediaFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<byte[]> mutatedRecords() throws MediaFormatException {
        byte[] record = AvcConfig.fromParameterSets(
                        List.of(AvcConfigTest.SPS_720P_HIGH), List.of(AvcConfigTest.PPS_720P_HIGH))
                .record();
        return mutations(record);
    }

    @Provide
    Arbitrary<byte[]> mutatedSps() {
        return mutations(AvcConfigTest.SPS_360P_BASELINE);
    }

    private static Arbitrary<byte[]> mutations(byte[] seed) {
        Arbitrary<byte[]> flipped = Arbitraries.integers()
                .between(0, seed.length * 8 - 1)
                .list()
                .ofMaxSize(4)
                .map(bits -> {
                    byte[] copy = seed.clone();
                    for (int bit : bits) {
                        copy[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
                    }
                    return copy;
                });
        Arbitrary<byte[]> truncated =
                Arbitraries.integers().between(0, seed.length).map(n -> java.util.Arrays.copyOf(seed, n));
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        return Arbitraries.oneOf(flipped, truncated, random);
    }
}
