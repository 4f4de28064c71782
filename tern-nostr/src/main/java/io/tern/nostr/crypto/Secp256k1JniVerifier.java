package io.tern.nostr.crypto;

import fr.acinq.secp256k1.Secp256k1;

/** libsecp256k1 (Bitcoin Core's) through ACINQ's JNI binding: the fast path. */
public final class Secp256k1JniVerifier implements SchnorrVerifier {
    private final Secp256k1 secp;

    private Secp256k1JniVerifier(Secp256k1 secp) {
        this.secp = secp;
    }

    /**
     * Loads the native library (extracted from the jar into a temporary directory).
     *
     * @throws Exception or {@link LinkageError} when it cannot be loaded on this platform
     */
    public static Secp256k1JniVerifier load() throws Exception {
        // Secp256k1.get() finds the JNI loader (secp256k1-kmp-jni-jvm) by reflection and loads the library.
        return new Secp256k1JniVerifier(Secp256k1.Companion.get());
    }

    @Override
    public boolean verify(byte[] signature, byte[] message, byte[] publicKey) {
        if (signature.length != 64 || message.length != 32 || publicKey.length != 32) {
            return false;
        }
        try {
            return secp.verifySchnorr(signature, message, publicKey);
        } catch (RuntimeException e) {
            // The binding throws when the x-only key does not parse (not on the curve, >= p).
            return false;
        }
    }

    /** BIP-340 signing with the given auxiliary randomness; for tests and tools, never the relay path. */
    public byte[] sign(byte[] message, byte[] secretKey, byte[] auxRand) {
        return secp.signSchnorr(message, secretKey, auxRand);
    }

    /** The x-only public key of a secret key. */
    public byte[] xOnlyPublicKey(byte[] secretKey) {
        byte[] uncompressed = secp.pubkeyCreate(secretKey);
        return java.util.Arrays.copyOfRange(uncompressed, 1, 33);
    }

    @Override
    public String name() {
        return "libsecp256k1-jni";
    }
}
