package io.tern.srt.crypto;

import io.tern.srt.packet.SrtHeader;

/**
 * The receiving side's even and odd stream keys. The sender picks the key per packet (the KK
 * field); a key refresh arrives as new keying material and replaces one slot, so packets under the
 * old key that are still in flight keep decrypting.
 */
public final class ReceiveKeys {
    private final String passphrase;
    private final CtrCipher[] ciphers = new CtrCipher[2];
    private int keyLength;

    public ReceiveKeys(String passphrase) {
        this.passphrase = passphrase;
    }

    /** Unwraps and installs the keys of {@code km}; throws when the passphrase does not fit. */
    public void install(KeyMaterial km) throws SrtCryptoException {
        byte[][] keys = km.unwrap(passphrase);
        byte[] salt = km.salt();
        for (int i = 0; i < 2; i++) {
            if (keys[i] != null) {
                ciphers[i] = new CtrCipher(keys[i], salt);
            }
        }
        keyLength = km.keyLength();
    }

    public int keyLength() {
        return keyLength;
    }

    /** Decrypts in place; false when the packet names a key this side does not have. */
    public boolean decrypt(int keyFlags, int seq, byte[] buf, int off, int len) {
        CtrCipher c = keyFlags == SrtHeader.KK_EVEN ? ciphers[0] : keyFlags == SrtHeader.KK_ODD ? ciphers[1] : null;
        if (c == null) {
            return false;
        }
        c.apply(seq, buf, off, len);
        return true;
    }
}
