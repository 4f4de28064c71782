package io.tern.hls.swarm;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * Ed25519 (RFC 8032) through the JDK's own provider, with keys as the browser's WebCrypto sees
 * them: a public key is its raw 32 bytes, a private key its 32-byte seed.
 */
public final class Ed25519 {
    public static final int KEY_BYTES = 32;
    public static final int SIGNATURE_BYTES = 64;
    /** The DER prefix of an X.509 SubjectPublicKeyInfo for Ed25519 (RFC 8410 §4); the raw key follows. */
    private static final byte[] SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private Ed25519() {}

    /** A key pair whose private key is {@code seed} (32 bytes): the same seed always gives the same pair. */
    public static KeyPair fromSeed(byte[] seed) {
        if (seed.length != KEY_BYTES) {
            throw new IllegalArgumentException("an Ed25519 seed has 32 bytes, not " + seed.length);
        }
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
            // The generator draws exactly the 32-byte seed from its random source (RFC 8032 §5.1.5).
            generator.initialize(NamedParameterSpec.ED25519, new SeedRandom(seed));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519", e);
        }
    }

    /** A new key pair whose seed comes from {@code random}. */
    public static KeyPair generate(SecureRandom random) {
        byte[] seed = new byte[KEY_BYTES];
        random.nextBytes(seed);
        return fromSeed(seed);
    }

    /** The 32-byte seed of a private key. */
    public static byte[] seed(PrivateKey key) {
        return ((EdECPrivateKey) key)
                .getBytes()
                .orElseThrow(() -> new IllegalArgumentException("the private key's bytes are not extractable"));
    }

    /** The raw 32 bytes of a public key. */
    public static byte[] publicRaw(PublicKey key) {
        byte[] spki = key.getEncoded();
        return Arrays.copyOfRange(spki, spki.length - KEY_BYTES, spki.length);
    }

    /** A public key from its raw 32 bytes. */
    public static PublicKey publicKey(byte[] raw) {
        if (raw.length != KEY_BYTES) {
            throw new IllegalArgumentException("an Ed25519 public key has 32 bytes, not " + raw.length);
        }
        byte[] spki = Arrays.copyOf(SPKI_PREFIX, SPKI_PREFIX.length + KEY_BYTES);
        System.arraycopy(raw, 0, spki, SPKI_PREFIX.length, KEY_BYTES);
        try {
            return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key", e);
        }
    }

    public static Signature newSignature() {
        try {
            return Signature.getInstance("Ed25519");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519", e);
        }
    }

    /** The signature of {@code message} by {@code key}. */
    public static byte[] sign(PrivateKey key, byte[] message) {
        Signature s = newSignature();
        try {
            s.initSign(key);
            s.update(message);
            return s.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot sign with " + key.getAlgorithm(), e);
        }
    }

    /** Whether {@code signature} is {@code message} signed by the key whose raw public bytes are {@code publicRaw}. */
    public static boolean verify(byte[] publicRaw, byte[] message, byte[] signature) {
        if (publicRaw == null
                || publicRaw.length != KEY_BYTES
                || signature == null
                || signature.length != SIGNATURE_BYTES) {
            return false;
        }
        try {
            Signature s = newSignature();
            s.initVerify(publicKey(publicRaw));
            s.update(message);
            return s.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false; // a key that is not a curve point, a malformed signature: not valid
        }
    }

    /** Hands the key generator one fixed seed, so a pair can be rebuilt from its private key. */
    private static final class SeedRandom extends SecureRandom {
        private final byte[] seed;

        SeedRandom(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("the Ed25519 generator asked for " + bytes.length + " bytes");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}
