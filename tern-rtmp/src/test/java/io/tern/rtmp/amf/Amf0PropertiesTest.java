package io.tern.rtmp.amf;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class Amf0PropertiesTest {
    @Property(tries = 300)
    void everyValueRoundTrips(@ForAll("values") AmfValue value) throws AmfException {
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, value);

        Amf0Reader reader = new Amf0Reader(out.array(), 0, out.length(), 64, 100_000);
        assertThat(reader.read()).isEqualTo(value);
        assertThat(reader.hasRemaining()).isFalse();
    }

    @Property(tries = 3000)
    void arbitraryBytesGiveValuesOrAnAmfException(@ForAll byte[] input) {
        try {
            List<AmfValue> values = Amf0Reader.readAll(input, 0, input.length);
            assertThat(values.size()).isLessThanOrEqualTo(input.length);
        } catch (AmfException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Property(tries = 500)
    void mutatedEncodingsGiveValuesOrAnAmfException(@ForAll("values") AmfValue value, @ForAll long seed) {
        ByteWriter out = new ByteWriter(64);
        Amf0Writer.write(out, value);
        byte[] bytes = Arrays.copyOf(out.array(), out.length());
        Random random = new Random(seed);
        for (int i = 0; i < 1 + random.nextInt(4) && bytes.length > 0; i++) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        int length = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
        try {
            Amf0Reader.readAll(bytes, 0, length);
        } catch (AmfException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<AmfValue> values() {
        // Without edge cases: their combinations over a recursive generator cost far more than the tries.
        return value(3).withoutEdgeCases();
    }

    private Arbitrary<AmfValue> value(int depth) {
        Arbitrary<AmfValue> leaf = Arbitraries.oneOf(
                Arbitraries.doubles().map(AmfNumber::new),
                Arbitraries.of(true, false).map(AmfBoolean::new),
                Arbitraries.strings()
                        .withCharRange('\u0000', '\uD7FF')
                        .ofMaxLength(40)
                        .map(AmfString::new),
                Arbitraries.doubles().map(d -> new AmfDate(d, (short) 0)),
                Arbitraries.just(AmfNull.NULL),
                Arbitraries.just(AmfUndefined.UNDEFINED));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Map<String, AmfValue>> properties = Arbitraries.maps(
                        Arbitraries.strings().withCharRange('\u0000', '\uD7FF').ofMaxLength(12), value(depth - 1))
                .ofMaxSize(4);
        return Arbitraries.oneOf(
                leaf,
                leaf,
                properties.map(AmfObject::new),
                properties.map(AmfEcmaArray::new),
                value(depth - 1).list().ofMaxSize(4).map(AmfStrictArray::new));
    }
}
