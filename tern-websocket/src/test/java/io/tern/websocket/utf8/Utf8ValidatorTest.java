package io.tern.websocket.utf8;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class Utf8ValidatorTest {

    private static boolean jdkAccepts(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Provide
    Arbitrary<byte[]> utf8ish() {
        // Mostly bytes around the interesting boundaries, so multi-byte sequences actually occur.
        Arbitrary<Byte> interesting = Arbitraries.of(
                (byte) 0x41,
                (byte) 0x7F,
                (byte) 0x80,
                (byte) 0xBF,
                (byte) 0xC0,
                (byte) 0xC2,
                (byte) 0xDF,
                (byte) 0xE0,
                (byte) 0xED,
                (byte) 0xEF,
                (byte) 0xF0,
                (byte) 0xF4,
                (byte) 0xF5,
                (byte) 0x9F,
                (byte) 0xA0,
                (byte) 0x90,
                (byte) 0x8F);
        return Arbitraries.oneOf(interesting, Arbitraries.bytes())
                .array(byte[].class)
                .ofMaxSize(40);
    }

    @Property(tries = 3000)
    void agreesWithTheJdkDecoderForAnySplit(
            @ForAll("utf8ish") byte[] bytes, @ForAll @IntRange(min = 0, max = 40) int split) {
        int at = Math.min(split, bytes.length);
        Utf8Validator v = new Utf8Validator();
        boolean ok = v.update(bytes, 0, at) && v.update(bytes, at, bytes.length - at) && v.isComplete();
        assertThat(ok).isEqualTo(jdkAccepts(bytes));
    }

    @Property(tries = 500)
    void acceptsAnyEncodedString(@ForAll String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        // Lone surrogates encode as '?', so the encoded form is always valid.
        assertThat(Utf8Validator.isValid(bytes, 0, bytes.length)).isTrue();
    }

    @Test
    void rejectsSurrogatesOverlongsAndOutOfRange() {
        assertThat(Utf8Validator.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0, 3))
                .isFalse();
        assertThat(Utf8Validator.isValid(new byte[] {(byte) 0xC0, (byte) 0xAF}, 0, 2))
                .isFalse();
        assertThat(Utf8Validator.isValid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4))
                .isFalse();
        assertThat(Utf8Validator.isValid(new byte[] {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}, 0, 4))
                .isTrue();
    }

    @Test
    void failsOnTheFirstImpossibleByteNotAtTheEnd() {
        Utf8Validator v = new Utf8Validator();
        assertThat(v.update(new byte[] {'a', 'b', (byte) 0xF4}, 0, 3)).isTrue();
        assertThat(v.isComplete()).isFalse();
        assertThat(v.update(new byte[] {(byte) 0x90}, 0, 1)).isFalse();
        assertThat(v.isRejected()).isTrue();
    }

    @Test
    void longAsciiRunsTakeTheFastPathAndStillCatchATrailingError() {
        byte[] bytes = ("x".repeat(1000)).getBytes(StandardCharsets.US_ASCII);
        bytes[997] = (byte) 0xFF;
        assertThat(Utf8Validator.isValid(bytes, 0, bytes.length)).isFalse();
    }
}
