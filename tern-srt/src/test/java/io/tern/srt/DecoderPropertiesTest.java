package io.tern.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.srt.crypto.KeyMaterial;
import io.tern.srt.crypto.SrtCryptoException;
import io.tern.srt.handshake.StreamId;
import io.tern.srt.packet.LossReport;
import io.tern.srt.packet.SeqNo;
import java.net.InetSocketAddress;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** Every decoder on the receive path, on arbitrary input: a value or its own checked error. */
class DecoderPropertiesTest {
    private static final SrtListener LISTENER = new SrtListener(SrtSettings.defaults(), new Random(1));
    private static final Transmit T = new Transmit();

    @Property(tries = 2000)
    void keyMaterial(@ForAll @Size(max = 200) byte[] b) {
        try {
            KeyMaterial km = KeyMaterial.parse(b, 0, b.length);
            assertThat(KeyMaterial.validKeyLength(km.keyLength())).isTrue();
        } catch (SrtCryptoException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Property(tries = 2000)
    void lossReports(@ForAll @Size(max = 400) byte[] b) {
        LossReport.read(
                b,
                0,
                b.length,
                (first, last) -> assertThat(SeqNo.diff(last, first)).isNotNegative());
    }

    @Property(tries = 2000)
    void streamIds(@ForAll String s) {
        StreamId id = StreamId.parse(s);
        if (id != null) {
            assertThat(id.resource()).isNotEmpty().doesNotContain("..");
        }
    }

    @Property(tries = 3000)
    void listenerDatagrams(@ForAll @Size(max = 1600) byte[] b) {
        LISTENER.onDatagram(b, 0, b.length, new InetSocketAddress("127.0.0.1", 7000), 1_000_000_000L);
        while (LISTENER.pollTransmit(T)) {
            assertThat(T.length).isBetween(16, 1500);
        }
        assertThat(LISTENER.sessionCount()).isZero();
    }
}
