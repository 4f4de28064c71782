package io.tern.srt.crypto;

/** Keying material that cannot be used: malformed, unsupported, or wrapped under another secret. */
public final class SrtCryptoException extends Exception {
    private final boolean badSecret;

    public SrtCryptoException(String message, boolean badSecret) {
        super(message);
        this.badSecret = badSecret;
    }

    /** True when the material is well formed but does not unwrap under the passphrase. */
    public boolean badSecret() {
        return badSecret;
    }
}
