package io.tern.rtmp.amf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.rtmp.amf.AmfValue.AmfBoolean;
import io.tern.rtmp.amf.AmfValue.AmfDate;
import io.tern.rtmp.amf.AmfValue.AmfEcmaArray;
import io.tern.rtmp.amf.AmfValue.AmfNull;
import io.tern.rtmp.amf.AmfValue.AmfNumber;
import io.tern.rtmp.amf.AmfValue.AmfObject;
import io.tern.rtmp.amf.AmfValue.AmfStrictArray;
import io.tern.rtmp.amf.AmfValue.AmfString;
import io.tern.rtmp.amf.AmfValue.AmfUndefined;
import io.tern.rtmp.bytes.ByteWriter;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class Amf0Test {
    private static final HexFormat HEX = HexFormat.of();

    /** A connect command in the shape ffmpeg sends: name, transaction id 1, then an object. */
    private static final String FFMPEG_CONNECT = "020007" + "636f6e6e656374" // "connect"
            + "003ff0000000000000" // 1.0
            + "03" // object
            + "0003" + "617070" + "0200046c697665" // app: "live"
            + "0004" + "74797065" + "02000a6e6f6e70726976617465" // type: "nonprivate"
            + "000009"; // object end

    @Test
    void decodesAConnectCommand() throws AmfException {
        byte[] bytes = HEX.parseHex(FFMPEG_CONNECT);

        List<AmfValue> values = Amf0Reader.readAll(bytes, 0, bytes.length);

        assertThat(values)
                .containsExactly(
                        new AmfString("connect"), new AmfNumber(1), AmfObject.of("app", "live", "type", "nonprivate"));
        assertThat(((AmfObject) values.get(2)).string("app")).isEqualTo("live");
    }

    @Test
    void encodesExactlyTheSameBytes() {
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, new AmfString("connect"));
        Amf0Writer.write(out, new AmfNumber(1));
        Amf0Writer.write(out, AmfObject.of("app", "live", "type", "nonprivate"));

        assertThat(HEX.formatHex(out.array(), 0, out.length())).isEqualTo(FFMPEG_CONNECT);
    }

    @Test
    void everyTypeRoundTrips() throws AmfException {
        List<AmfValue> values = List.of(
                new AmfNumber(-0.5),
                new AmfBoolean(true),
                new AmfString("é✓"),
                new AmfString("x".repeat(70_000)),
                AmfObject.of("nested", AmfObject.of("deep", 1.0), "", "empty key"),
                AmfEcmaArray.of("width", 1280.0, "height", 720.0),
                new AmfStrictArray(List.of(AmfNull.NULL, AmfUndefined.UNDEFINED, new AmfNumber(3))),
                new AmfDate(1.7e12, (short) 0),
                AmfNull.NULL,
                AmfUndefined.UNDEFINED);
        ByteWriter out = new ByteWriter(64);
        values.forEach(v -> Amf0Writer.write(out, v));

        assertThat(Amf0Reader.readAll(out.array(), 0, out.length())).isEqualTo(values);
        assertThat(out.array()[11]).as("a short string's marker").isEqualTo((byte) 0x02);
    }

    @Test
    void longStringsUseTheLongMarker() {
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, new AmfString("y".repeat(65_536)));
        assertThat(out.array()[0]).isEqualTo((byte) 0x0C);
        assertThat(out.length()).isEqualTo(1 + 4 + 65_536);
    }

    @Test
    void anEcmaArrayCountIsOnlyAHint() throws AmfException {
        // ECMA array claiming 0 entries but holding one, as some encoders write onMetaData.
        byte[] bytes =
                HEX.parseHex("08" + "00000000" + "0008" + "6475726174696f6e" + "00" + "4000000000000000" + "000009");

        assertThat(Amf0Reader.readAll(bytes, 0, bytes.length)).containsExactly(AmfEcmaArray.of("duration", 2.0));
    }

    @Test
    void truncationAtEveryByteIsAnError() {
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, AmfObject.of("a", AmfEcmaArray.of("b", "c"), "d", new AmfDate(1, (short) 0)));
        for (int n = 1; n < out.length(); n++) {
            int length = n;
            assertThatThrownBy(() -> Amf0Reader.readAll(out.array(), 0, length))
                    .as("length %d", n)
                    .isInstanceOf(AmfException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        AmfValue value = new AmfNumber(1);
        for (int i = 0; i < Amf0Reader.DEFAULT_MAX_DEPTH + 1; i++) {
            value = AmfObject.of("k", value);
        }
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, value);

        assertThatThrownBy(() -> Amf0Reader.readAll(out.array(), 0, out.length()))
                .isInstanceOf(AmfException.class)
                .hasMessageContaining("nested deeper");
    }

    @Test
    void aStrictArrayCountPastTheInputIsRefusedWithoutAllocating() {
        byte[] bytes = HEX.parseHex("0a" + "7fffffff" + "05");
        assertThatThrownBy(() -> Amf0Reader.readAll(bytes, 0, bytes.length))
                .isInstanceOf(AmfException.class)
                .hasMessageContaining("strict array of 2147483647 values");
    }

    @Test
    void tooManyValuesAreRefused() {
        ByteWriter out = new ByteWriter(64);
        out.u8(0x0A).u32(5000);
        for (int i = 0; i < 5000; i++) {
            out.u8(0x05);
        }
        assertThatThrownBy(() -> Amf0Reader.readAll(out.array(), 0, out.length()))
                .isInstanceOf(AmfException.class)
                .hasMessageContaining("number of AMF0 values");
    }

    @Test
    void unsupportedMarkersAreNamed() {
        byte[] reference = HEX.parseHex("070001");
        assertThatThrownBy(() -> Amf0Reader.readAll(reference, 0, reference.length))
                .isInstanceOf(AmfException.class)
                .hasMessageContaining("marker 0x7");
        byte[] strayEnd = HEX.parseHex("09");
        assertThatThrownBy(() -> Amf0Reader.readAll(strayEnd, 0, strayEnd.length))
                .isInstanceOf(AmfException.class)
                .hasMessageContaining("object end");
    }
}
