package io.tern.nostr.crypto;

/** BIP-340 Schnorr signature verification over secp256k1. Implementations are thread-safe. */
public interface SchnorrVerifier {
    /**
     * True when {@code signature} (64 bytes) is a valid BIP-340 signature of {@code message} (32
     * bytes) by the x-only public key {@code publicKey} (32 bytes). Malformed keys or signatures are
     * simply invalid: this never throws for bad input.
     */
    boolean verify(byte[] signature, byte[] message, byte[] publicKey);

    /** Which implementation this is, for logs and metrics. */
    String name();
}
