package io.tern.srt.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The key encrypting key from the passphrase (draft-sharabayko-srt §6.1.4): PBKDF2 with
 * HMAC-SHA1, 2048 iterations, the salt's least significant 64 bits (its last 8 bytes), and a KEK
 * as long as the stream key it protects.
 */
public final class PassphraseKdf {
    public static final int ITERATIONS = 2048;
    /** libsrt accepts passphrases of 10 to 79 characters ({@code SRTO_PASSPHRASE}). */
    public static final int MIN_PASSPHRASE = 10;

    public static final int MAX_PASSPHRASE = 79;

    private PassphraseKdf() {}

    public static byte[] kek(String passphrase, byte[] salt, int keyLength) {
        byte[] lsb = new byte[8];
        System.arraycopy(salt, salt.length - 8, lsb, 0, 8);
        return pbkdf2(passphrase, lsb, ITERATIONS, keyLength);
    }

    static byte[] pbkdf2(String passphrase, byte[] salt, int iterations, int keyLength) {
        PBEKeySpec spec = new PBEKeySpec(passphrase.toCharArray(), salt, iterations, keyLength * 8);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA1 unavailable", e);
        } finally {
            spec.clearPassword();
        }
    }

    /** A configuration check: {@code null} when valid, else what is wrong. */
    public static String validate(String passphrase) {
        if (passphrase == null) {
            return null;
        }
        int n = passphrase.length();
        if (n < MIN_PASSPHRASE || n > MAX_PASSPHRASE) {
            return "an SRT passphrase has " + MIN_PASSPHRASE + " to " + MAX_PASSPHRASE + " characters, not " + n;
        }
        return null;
    }
}
