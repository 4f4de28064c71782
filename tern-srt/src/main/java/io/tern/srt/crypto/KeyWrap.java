package io.tern.srt.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * RFC 3394 AES key wrap with the default initial value A6A6A6A6A6A6A6A6, as libsrt wraps the stream
 * encrypting keys under the KEK (HaiCrypt's {@code hcrypt_WrapKey}). The JDK's {@code AESWrap}
 * implements exactly RFC 3394; the integrity check on unwrap is what detects a wrong passphrase.
 */
public final class KeyWrap {
    /** The 64-bit integrity block the wrap adds. */
    public static final int OVERHEAD_BYTES = 8;

    private KeyWrap() {}

    public static byte[] wrap(byte[] kek, byte[] keys) {
        try {
            Cipher c = Cipher.getInstance("AESWrap");
            c.init(Cipher.WRAP_MODE, new SecretKeySpec(kek, "AES"));
            return c.wrap(new SecretKeySpec(keys, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES key wrap unavailable or key size " + kek.length, e);
        }
    }

    public static byte[] unwrap(byte[] kek, byte[] wrapped, int off, int len) throws SrtCryptoException {
        if (len < OVERHEAD_BYTES + 16 || len % 8 != 0) {
            throw new SrtCryptoException("wrapped key of " + len + " bytes", false);
        }
        try {
            Cipher c = Cipher.getInstance("AESWrap");
            c.init(Cipher.UNWRAP_MODE, new SecretKeySpec(kek, "AES"));
            byte[] w = new byte[len];
            System.arraycopy(wrapped, off, w, 0, len);
            return c.unwrap(w, "AES", Cipher.SECRET_KEY).getEncoded();
        } catch (java.security.InvalidKeyException e) {
            throw new SrtCryptoException("key unwrap integrity check failed", true);
        } catch (GeneralSecurityException e) {
            throw new SrtCryptoException("key unwrap failed: " + e.getMessage(), true);
        }
    }
}
