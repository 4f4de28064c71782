package io.tern.nostr.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** libsecp256k1 and the BouncyCastle fallback agree on random keys, messages and corruptions. */
class VerifierCrossCheckTest {
    private static final Secp256k1JniVerifier JNI = load();
    private static final BouncyCastleSchnorrVerifier BC = new BouncyCastleSchnorrVerifier();

    private static Secp256k1JniVerifier load() {
        try {
            return Secp256k1JniVerifier.load();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Provide
    Arbitrary<byte[]> secretKeys() {
        return Arbitraries.bytes().array(byte[].class).ofSize(32).filter(k -> {
            BigInteger x = new BigInteger(1, k);
            return x.signum() > 0 && x.compareTo(BouncyCastleSchnorrVerifier.N) < 0;
        });
    }

    @Property(tries = 150)
    void bothAcceptWhatEitherSigns(
            @ForAll("secretKeys") byte[] secret, @ForAll @Size(32) byte[] message, @ForAll @Size(32) byte[] aux) {
        byte[] pub = JNI.xOnlyPublicKey(secret);
        assertThat(Bip340Signer.publicKey(secret)).isEqualTo(pub);
        byte[] jniSig = JNI.sign(message, secret, aux);
        byte[] bcSig = Bip340Signer.sign(message, secret, aux);
        assertThat(bcSig).isEqualTo(jniSig);
        assertThat(JNI.verify(jniSig, message, pub)).isTrue();
        assertThat(BC.verify(jniSig, message, pub)).isTrue();
    }

    @Property(tries = 150)
    void bothRejectTheSameCorruptions(
            @ForAll("secretKeys") byte[] secret,
            @ForAll @Size(32) byte[] message,
            @ForAll @IntRange(min = 0, max = 127) int bit,
            @ForAll @IntRange(min = 0, max = 2) int which) {
        byte[] pub = JNI.xOnlyPublicKey(secret);
        byte[] sig = JNI.sign(message, secret, new byte[32]);
        byte[][] parts = {sig.clone(), message.clone(), pub.clone()};
        byte[] target = parts[which];
        int b = bit % (target.length * 8);
        target[b / 8] ^= (byte) (1 << (b % 8));
        boolean jni = JNI.verify(parts[0], parts[1], parts[2]);
        assertThat(BC.verify(parts[0], parts[1], parts[2])).isEqualTo(jni);
        assertThat(jni).isFalse();
    }

    @Property(tries = 200)
    void bothAgreeOnArbitraryBytes(
            @ForAll @Size(64) byte[] sig, @ForAll @Size(32) byte[] message, @ForAll @Size(32) byte[] pub) {
        assertThat(BC.verify(sig, message, pub)).isEqualTo(JNI.verify(sig, message, pub));
    }

    @Test
    void wrongLengthsAreInvalidNotErrors() {
        assertThat(JNI.verify(new byte[63], new byte[32], new byte[32])).isFalse();
        assertThat(BC.verify(new byte[64], new byte[31], new byte[32])).isFalse();
        assertThat(BC.verify(new byte[64], new byte[32], new byte[33])).isFalse();
    }

    @Test
    void theNativeLibraryIsChosenWhenItLoads() {
        SchnorrVerifiers.Choice c = SchnorrVerifiers.best();
        assertThat(c.verifier().name()).isEqualTo("libsecp256k1-jni");
        assertThat(c.fallbackReason()).isNull();
    }
}
