package io.tern.nostr.crypto;

/** Picks the verifier: libsecp256k1 when its native library loads, BouncyCastle otherwise. */
public final class SchnorrVerifiers {
    private SchnorrVerifiers() {}

    /**
     * The verifier chosen and, when it is the fallback, why the native one was not (for the
     * server's start-up log); {@code fallbackReason} is null when libsecp256k1 loaded.
     */
    public record Choice(SchnorrVerifier verifier, String fallbackReason) {}

    public static Choice best() {
        try {
            return new Choice(Secp256k1JniVerifier.load(), null);
        } catch (Exception | LinkageError e) {
            return new Choice(new BouncyCastleSchnorrVerifier(), e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
