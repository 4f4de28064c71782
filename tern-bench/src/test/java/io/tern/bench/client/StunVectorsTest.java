package io.tern.bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** RFC 5769 test vectors against the benchmark's own STUN encoder and checks. */
class StunVectorsTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replaceAll("\\s+", ""));
    }

    // RFC 5769 §2.1: sample request, short-term password "VOkJxbRl1RmTxUk/WvJxBt".
    static final byte[] REQUEST = hex("""
            00 01 00 58 21 12 a4 42 b7 e7 a7 01 bc 34 d6 86 fa 87 df ae
            80 22 00 10 53 54 55 4e 20 74 65 73 74 20 63 6c 69 65 6e 74
            00 24 00 04 6e 00 01 ff
            80 29 00 08 93 2f f9 b1 51 26 3b 36
            00 06 00 09 65 76 74 6a 3a 68 36 76 59 20 20 20
            00 08 00 14 9a ea a7 0c bf d8 cb 56 78 1e f2 b5 b2 d3 f2 49 c1 b5 71 a2
            80 28 00 04 e5 7a 3b cf""");

    // RFC 5769 §2.2: sample IPv4 response.
    static final byte[] RESPONSE_V4 = hex("""
            01 01 00 3c 21 12 a4 42 b7 e7 a7 01 bc 34 d6 86 fa 87 df ae
            80 22 00 0b 74 65 73 74 20 76 65 63 74 6f 72 20
            00 20 00 08 00 01 a1 47 e1 12 a6 43
            00 08 00 14 2b 91 f5 99 fd 9e 90 c3 8c 74 89 f9 2a f9 ba 53 f0 6b e7 d7
            80 28 00 04 c0 7d 4c 96""");

    // RFC 5769 §2.4: request with long-term authentication.
    static final byte[] LONG_TERM = hex("""
            00 01 00 60 21 12 a4 42 78 ad 34 33 c6 ad 72 c0 29 da 41 2e
            00 06 00 12 e3 83 9e e3 83 88 e3 83 aa e3 83 83 e3 82 af e3 82 b9 00 00
            00 15 00 1c 66 2f 2f 34 39 39 6b 39 35 34 64 36 4f 4c 33 34 6f 4c 39 46 53 54 76 79 36 34 73 41
            00 14 00 0b 65 78 61 6d 70 6c 65 2e 6f 72 67 00
            00 08 00 14 f6 70 24 65 6d d6 4a 3e 02 b8 e0 71 2e 85 c9 a2 8c a8 96 66""");

    static final byte[] SHORT_TERM_KEY = "VOkJxbRl1RmTxUk/WvJxBt".getBytes(StandardCharsets.UTF_8);

    @Test
    void sampleRequestIntegrityAndFingerprintVerify() {
        StunMessage m = StunMessage.decode(REQUEST, 0, REQUEST.length);
        assertThat(m.method()).isEqualTo(Stun.METHOD_BINDING);
        assertThat(m.messageClass()).isEqualTo(Stun.CLASS_REQUEST);
        assertThat(m.string(Stun.ATTR_USERNAME)).isEqualTo("evtj:h6vY");
        assertThat(m.verifyIntegrity(REQUEST, 0, SHORT_TERM_KEY)).isTrue();
        assertThat(m.verifyIntegrity(REQUEST, 0, "wrong".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(m.verifyFingerprint(REQUEST, 0)).isTrue();
    }

    @Test
    void encoderReproducesSampleRequestByteForByte() {
        StunMessage m = new StunMessage(0x0001, hex("b7 e7 a7 01 bc 34 d6 86 fa 87 df ae"))
                .addString(Stun.ATTR_SOFTWARE, "STUN test client")
                .add(0x0024, hex("6e 00 01 ff"))
                .add(0x8029, hex("93 2f f9 b1 51 26 3b 36"))
                .addString(Stun.ATTR_USERNAME, "evtj:h6vY");
        // RFC 5769 pads with spaces; on the wire the encoder pads with zeros.
        assertThat(m.encode(SHORT_TERM_KEY, true, (byte) 0x20)).isEqualTo(REQUEST);
    }

    @Test
    void encoderReproducesIpv4ResponseAndXorMappedAddressDecodes() {
        byte[] id = hex("b7 e7 a7 01 bc 34 d6 86 fa 87 df ae");
        InetSocketAddress mapped = new InetSocketAddress("192.0.2.1", 32853);
        StunMessage m = new StunMessage(Stun.messageType(Stun.METHOD_BINDING, Stun.CLASS_SUCCESS), id)
                .addString(Stun.ATTR_SOFTWARE, "test vector")
                .add(Stun.ATTR_XOR_MAPPED_ADDRESS, Stun.xorAddress(mapped, id));
        assertThat(m.encode(SHORT_TERM_KEY, true, (byte) 0x20)).isEqualTo(RESPONSE_V4);

        StunMessage d = StunMessage.decode(RESPONSE_V4, 0, RESPONSE_V4.length);
        assertThat(d.messageType()).isEqualTo(0x0101);
        assertThat(Stun.decodeXorAddress(d.find(Stun.ATTR_XOR_MAPPED_ADDRESS).value(), id))
                .isEqualTo(mapped);
        assertThat(d.verifyIntegrity(RESPONSE_V4, 0, SHORT_TERM_KEY)).isTrue();
        assertThat(d.verifyFingerprint(RESPONSE_V4, 0)).isTrue();
    }

    @Test
    void longTermIntegrityUsesMd5OfUsernameRealmPassword() {
        // Username "マトリックス", realm "example.org", password "TheMatrIX" after SASLprep.
        byte[] key = Stun.longTermKey("\u30DE\u30C8\u30EA\u30C3\u30AF\u30B9", "example.org", "TheMatrIX");
        StunMessage m = StunMessage.decode(LONG_TERM, 0, LONG_TERM.length);
        assertThat(m.string(Stun.ATTR_REALM)).isEqualTo("example.org");
        assertThat(m.verifyIntegrity(LONG_TERM, 0, key)).isTrue();

        StunMessage again = new StunMessage(0x0001, m.transactionId())
                .add(Stun.ATTR_USERNAME, m.find(Stun.ATTR_USERNAME).value())
                .add(Stun.ATTR_NONCE, m.find(Stun.ATTR_NONCE).value())
                .add(Stun.ATTR_REALM, m.find(Stun.ATTR_REALM).value());
        assertThat(again.encode(key, false, (byte) 0)).isEqualTo(LONG_TERM);
    }

    @Test
    void messageTypeInterleavesMethodAndClass() {
        assertThat(Stun.messageType(Stun.METHOD_ALLOCATE, Stun.CLASS_REQUEST)).isEqualTo(0x0003);
        assertThat(Stun.messageType(Stun.METHOD_ALLOCATE, Stun.CLASS_ERROR)).isEqualTo(0x0113);
        assertThat(Stun.messageType(Stun.METHOD_CHANNEL_BIND, Stun.CLASS_SUCCESS))
                .isEqualTo(0x0109);
        for (int method = 0; method < 0x1000; method += 7) {
            for (int cls :
                    new int[] {Stun.CLASS_REQUEST, Stun.CLASS_INDICATION, Stun.CLASS_SUCCESS, Stun.CLASS_ERROR}) {
                int type = Stun.messageType(method, cls);
                assertThat(Stun.methodOf(type)).isEqualTo(method);
                assertThat(Stun.classOf(type)).isEqualTo(cls);
            }
        }
    }

    @Test
    void restCredentialsMatchCoturnScheme() {
        // Cross-checked with Python: base64(hmac.new(b"secret", b"1700000000:bench", sha1).digest()).
        RestCredentials c = RestCredentials.of("secret", "bench", 1_700_000_000L);
        assertThat(c.username()).isEqualTo("1700000000:bench");
        assertThat(c.password()).isEqualTo("zYi5YnJWZXsmIgQsFliP/r30Iug=");
        assertThat(HexFormat.of().formatHex(c.longTermKey("tern.bench"))).isEqualTo("3d774386de1fb8d7bd60cafe494b7ac9");
    }

    @Test
    void streamFramingLengths() {
        assertThat(ChannelData.streamFrameBytes(0x40, 0x00, 0x00, 0x05)).isEqualTo(12); // 4 + 5 padded to 4
        assertThat(ChannelData.streamFrameBytes(0x40, 0x00, 0x00, 0x08)).isEqualTo(12);
        assertThat(ChannelData.streamFrameBytes(0x01, 0x01, 0x00, 0x3c)).isEqualTo(80);
        assertThat(ChannelData.streamFrameBytes(0x80, 0, 0, 0)).isEqualTo(-1);
        assertThat(ChannelData.frameBytes(1200, false)).isEqualTo(1204);
        assertThat(ChannelData.frameBytes(161, true)).isEqualTo(168);
    }
}
