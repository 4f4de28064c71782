package io.tern.srt.handshake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HandshakeCodecTest {
    @Test
    void streamIdIsCarriedAsByteSwappedWordsAsLibsrtSendsIt() {
        byte[] b = new byte[16];
        int n = Handshake.putWordString(b, 0, "publish");
        assertThat(n).isEqualTo(8);
        assertThat(new String(b, 0, 8, java.nio.charset.StandardCharsets.ISO_8859_1))
                .isEqualTo("lbup\0hsi");
        assertThat(Handshake.wordString(b, 0, 8)).isEqualTo("publish");
    }

    @Test
    void conclusionRoundTrips() throws Exception {
        Handshake h = new Handshake();
        h.version = 5;
        h.extension = Handshake.EXT_HSREQ | Handshake.EXT_KMREQ | Handshake.EXT_CONFIG;
        h.encryption = 2;
        h.initialSeq = 12345;
        h.mtu = 1500;
        h.flowWindow = 8192;
        h.type = Handshake.TYPE_CONCLUSION;
        h.socketId = 99;
        h.cookie = 0xCAFE;
        h.srtCommand = Handshake.CMD_HSREQ;
        h.srtVersion = 0x010501;
        h.srtFlags = 0x3F;
        h.receiverDelayMs = 120;
        h.senderDelayMs = 300;
        h.kmCommand = Handshake.CMD_KMREQ;
        h.km = new byte[] {1, 2, 3, 4, 5, 6, 7, 8};
        h.streamId = "#!::r=live/cam1,m=publish,u=alice";
        h.setPeerIp(new InetSocketAddress("127.0.0.1", 1));
        byte[] b = new byte[1500];
        int n = h.encode(b, 0);
        assertThat(b[32]).as("IPv4 reversed as libsrt writes it").isEqualTo((byte) 1);
        assertThat(b[35]).isEqualTo((byte) 127);
        Handshake p = Handshake.parse(b, 0, n);
        assertThat(p.srtVersion).isEqualTo(0x010501);
        assertThat(p.receiverDelayMs).isEqualTo(120);
        assertThat(p.senderDelayMs).isEqualTo(300);
        assertThat(p.km).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(p.streamId).isEqualTo(h.streamId);
        assertThat(p.cookie).isEqualTo(0xCAFE);
    }

    @Test
    void anExtensionThatOverrunsThePacketIsRefused() {
        byte[] b = new byte[Handshake.CIF_BYTES + 8];
        b[3] = 5;
        b[20] = b[21] = b[22] = b[23] = (byte) 0xFF; // conclusion
        b[Handshake.CIF_BYTES + 1] = Handshake.CMD_SID;
        b[Handshake.CIF_BYTES + 3] = 100;
        assertThatThrownBy(() -> Handshake.parse(b, 0, b.length)).isInstanceOf(HandshakeFormatException.class);
    }

    @Property(tries = 2000)
    void anyBytesParseOrFailCleanly(@ForAll byte[] b) {
        try {
            Handshake.parse(b, 0, b.length);
        } catch (HandshakeFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Test
    void streamIdForms() {
        StreamId a = StreamId.parse("publish:live/cam1");
        assertThat(a.mode()).isEqualTo(StreamId.Mode.PUBLISH);
        assertThat(a.resource()).isEqualTo("live/cam1");
        assertThat(a.user()).isNull();
        StreamId b = StreamId.parse("#!::r=live/cam1,m=publish,u=alice");
        assertThat(b.mode()).isEqualTo(StreamId.Mode.PUBLISH);
        assertThat(b.resource()).isEqualTo("live/cam1");
        assertThat(b.user()).isEqualTo("alice");
        assertThat(StreamId.parse("#!::m=publish,r=live/x").resource()).isEqualTo("live/x");
        assertThat(StreamId.parse("#!::r=live/x").mode()).isEqualTo(StreamId.Mode.REQUEST);
        assertThat(StreamId.parse("read:live/x").mode()).isEqualTo(StreamId.Mode.REQUEST);
        assertThat(StreamId.parse("publish:live/x:bob:pw").user()).isEqualTo("bob");
        assertThat(StreamId.parse("publish:../etc")).isNull();
        assertThat(StreamId.parse("#!::r=live/x,m=bogus")).isNull();
        assertThat(StreamId.parse("")).isNull();
        assertThat(StreamId.parse("hello")).isNull();
    }

    @Test
    void cookieIsBoundToAddressPortAndMinute() {
        SynCookie c = new SynCookie(new Random(1));
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 5000);
        long t = 1_000 * SynCookie.BUCKET_NS;
        int k = c.cookie(a, t);
        assertThat(c.verify(a, k, t + SynCookie.BUCKET_NS / 2)).isTrue();
        assertThat(c.verify(a, k, t + SynCookie.BUCKET_NS))
                .as("previous minute still valid")
                .isTrue();
        assertThat(c.verify(a, k, t + 2 * SynCookie.BUCKET_NS)).isFalse();
        assertThat(c.verify(new InetSocketAddress("127.0.0.1", 5001), k, t)).isFalse();
        assertThat(c.verify(new InetSocketAddress("127.0.0.2", 5000), k, t)).isFalse();
    }
}
