package io.tern.websocket.frame;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class MaskingTest {

    @Property(tries = 500)
    void matchesTheByteWiseDefinitionAtEveryPhaseAndSplit(
            @ForAll @Size(max = 64) byte[] payload, @ForAll int maskKey, @ForAll @IntRange(max = 64) int split) {
        byte[] expected = payload.clone();
        for (int i = 0; i < expected.length; i++) {
            expected[i] ^= (byte) (maskKey >>> (24 - 8 * (i % 4)));
        }
        byte[] actual = payload.clone();
        int at = Math.min(split, actual.length);
        int phase = Masking.mask(actual, 0, at, maskKey, 0);
        assertThat(phase).isEqualTo(at & 3);
        Masking.mask(actual, at, actual.length - at, maskKey, phase);
        assertThat(actual).isEqualTo(expected);
    }

    @Property(tries = 200)
    void headerEncodingRoundTripsThroughTheFlyweight(
            @ForAll boolean fin,
            @ForAll @IntRange(max = 15) int opcode,
            @ForAll @IntRange(max = Integer.MAX_VALUE) int payloadBytes,
            @ForAll boolean masked,
            @ForAll int maskKey) {
        byte[] buf = new byte[FrameHeader.MAX_HEADER_BYTES];
        int written = FrameHeader.encode(buf, 0, fin, FrameHeader.RSV1, opcode, payloadBytes, masked, maskKey);
        FrameHeader header = new FrameHeader().wrap(buf, 0);
        assertThat(header.headerBytes()).isEqualTo(written);
        assertThat(header.fin()).isEqualTo(fin);
        assertThat(header.opcode()).isEqualTo(opcode);
        assertThat(header.rsv()).isEqualTo(FrameHeader.RSV1);
        assertThat(header.payloadBytes()).isEqualTo(payloadBytes);
        assertThat(header.masked()).isEqualTo(masked);
        if (masked) {
            assertThat(header.maskKey()).isEqualTo(maskKey);
        }
    }
}
