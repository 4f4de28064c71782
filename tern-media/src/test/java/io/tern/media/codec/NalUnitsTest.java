package io.tern.media.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.media.MediaFormatException;
import java.util.HexFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class NalUnitsTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void twoByteLengthsBecomeFourAndDelimitersGo() throws MediaFormatException {
        // AUD (09 f0), SEI (06 05 01), IDR slice (65 88 84)
        byte[] frame = HEX.parseHex("0002" + "09f0" + "0003" + "060501" + "0003" + "658884");

        byte[] out = NalUnits.toAccessUnitForm(frame, 0, frame.length, 2);

        assertThat(HEX.formatHex(out)).isEqualTo("00000003060501" + "00000003658884");
        assertThat(NalUnits.containsIdr(out)).isTrue();
    }

    @Test
    void oneByteLengthsAndEmptyUnitsAreNormalised() throws MediaFormatException {
        byte[] frame = HEX.parseHex("00" + "02419a" + "00");

        byte[] out = NalUnits.toAccessUnitForm(frame, 0, frame.length, 1);

        assertThat(HEX.formatHex(out)).isEqualTo("00000002419a");
        assertThat(NalUnits.containsIdr(out)).as("a P slice is not a keyframe").isFalse();
    }

    @Test
    void fourByteFramesAreCopiedUnchangedFromAnOffset() throws MediaFormatException {
        byte[] frame = HEX.parseHex("ffff" + "00000002419a" + "ff");

        byte[] out = NalUnits.toAccessUnitForm(frame, 2, 6, 4);

        assertThat(HEX.formatHex(out)).isEqualTo("00000002419a");
    }

    @Test
    void aLengthPastTheEndIsAFormatError() {
        byte[] frame = HEX.parseHex("00000009419a");
        assertThatThrownBy(() -> NalUnits.toAccessUnitForm(frame, 0, frame.length, 4))
                .isInstanceOf(MediaFormatException.class)
                .hasMessageContaining("overruns");
        byte[] cut = HEX.parseHex("000000");
        assertThatThrownBy(() -> NalUnits.toAccessUnitForm(cut, 0, cut.length, 4))
                .isInstanceOf(MediaFormatException.class)
                .hasMessageContaining("truncated");
    }

    @Property(tries = 2000)
    void arbitraryInputGivesABoundedFrameOrAFormatError(
            @ForAll byte[] input, @ForAll @IntRange(min = 0, max = 2) int sizeIndex) {
        int lengthSize = new int[] {1, 2, 4}[sizeIndex];
        try {
            byte[] out = NalUnits.toAccessUnitForm(input, 0, input.length, lengthSize);
            assertThat(out.length).isLessThanOrEqualTo(input.length * 4 + 4);
            NalUnits.containsIdr(out);
        } catch (MediaFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
        NalUnits.containsIdr(input);
    }
}
