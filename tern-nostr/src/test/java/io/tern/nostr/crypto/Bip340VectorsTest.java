package io.tern.nostr.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BIP-340's official vectors (src/test/resources/bip340/test-vectors.csv) against both verifiers. */
class Bip340VectorsTest {
    record Vector(
            int index,
            byte[] secret,
            byte[] pubkey,
            byte[] aux,
            byte[] message,
            byte[] sig,
            boolean valid,
            String comment) {
        @Override
        public String toString() {
            return index + (comment.isEmpty() ? "" : " (" + comment + ")");
        }
    }

    static Stream<Vector> vectors() throws IOException {
        List<Vector> out = new ArrayList<>();
        try (InputStream in = Bip340VectorsTest.class.getResourceAsStream("/bip340/test-vectors.csv")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n");
            for (int i = 1; i < lines.length; i++) {
                String[] f = lines[i].split(",", -1);
                out.add(new Vector(
                        Integer.parseInt(f[0]),
                        hex(f[1]),
                        hex(f[2]),
                        hex(f[3]),
                        hex(f[4]),
                        hex(f[5]),
                        f[6].equals("TRUE"),
                        f[7]));
            }
        }
        assertThat(out).hasSize(15);
        return out.stream();
    }

    static Stream<Vector> signingVectors() throws IOException {
        return vectors().filter(v -> v.secret != null);
    }

    private static byte[] hex(String s) {
        return s.isEmpty() ? null : Hex.decode(s.toLowerCase(Locale.ROOT));
    }

    @ParameterizedTest(name = "vector {0}")
    @MethodSource("vectors")
    void libsecp256k1Verifies(Vector v) throws Exception {
        assertThat(Secp256k1JniVerifier.load().verify(v.sig, v.message, v.pubkey))
                .isEqualTo(v.valid);
    }

    @ParameterizedTest(name = "vector {0}")
    @MethodSource("vectors")
    void bouncyCastleVerifies(Vector v) {
        assertThat(new BouncyCastleSchnorrVerifier().verify(v.sig, v.message, v.pubkey))
                .isEqualTo(v.valid);
    }

    @ParameterizedTest(name = "vector {0}")
    @MethodSource("signingVectors")
    void libsecp256k1SignsAsTheVectorSays(Vector v) throws Exception {
        Secp256k1JniVerifier secp = Secp256k1JniVerifier.load();
        assertThat(secp.xOnlyPublicKey(v.secret)).isEqualTo(v.pubkey);
        assertThat(secp.sign(v.message, v.secret, v.aux)).isEqualTo(v.sig);
    }

    @ParameterizedTest(name = "vector {0}")
    @MethodSource("signingVectors")
    void theTestSignerSignsAsTheVectorSays(Vector v) {
        assertThat(Bip340Signer.publicKey(v.secret)).isEqualTo(v.pubkey);
        assertThat(Bip340Signer.sign(v.message, v.secret, v.aux)).isEqualTo(v.sig);
    }
}
