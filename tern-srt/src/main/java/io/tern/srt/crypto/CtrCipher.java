package io.tern.srt.crypto;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-CTR over one data packet payload, with libsrt's counter layout (HaiCrypt {@code
 * hcrypt_SetCtrIV}): bytes 10–13 hold the packet index (the sequence number), bytes 14–15 the
 * block counter, and the first 112 bits are XORed with the salt.
 *
 * <p>The counter blocks are built here and encrypted in one ECB call, so a packet costs no
 * allocation and no cipher re-initialisation (the JDK's CTR mode would need a new IV object per
 * packet).
 */
public final class CtrCipher {
    private static final int MAX_PAYLOAD = 1500;
    private static final int BLOCK = 16;

    private final Cipher ecb;
    private final byte[] salt = new byte[14];
    private final byte[] counters = new byte[roundUp(MAX_PAYLOAD)];
    private final byte[] keystream = new byte[roundUp(MAX_PAYLOAD)];

    public CtrCipher(byte[] key, byte[] salt16) {
        try {
            ecb = Cipher.getInstance("AES/ECB/NoPadding");
            ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES unavailable for a " + key.length + "-byte key", e);
        }
        System.arraycopy(salt16, 0, salt, 0, 14);
    }

    private static int roundUp(int n) {
        return (n + BLOCK - 1) / BLOCK * BLOCK;
    }

    /** Encrypts or decrypts (the same operation) {@code len} bytes in place. */
    public void apply(int packetIndex, byte[] buf, int off, int len) {
        if (len <= 0) {
            return;
        }
        if (len > MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload of " + len + " bytes");
        }
        int blocks = (len + BLOCK - 1) / BLOCK;
        for (int blk = 0; blk < blocks; blk++) {
            int o = blk * BLOCK;
            System.arraycopy(salt, 0, counters, o, 10);
            counters[o + 10] = (byte) (salt[10] ^ (packetIndex >>> 24));
            counters[o + 11] = (byte) (salt[11] ^ (packetIndex >>> 16));
            counters[o + 12] = (byte) (salt[12] ^ (packetIndex >>> 8));
            counters[o + 13] = (byte) (salt[13] ^ packetIndex);
            counters[o + 14] = (byte) (blk >>> 8);
            counters[o + 15] = (byte) blk;
        }
        try {
            ecb.update(counters, 0, blocks * BLOCK, keystream, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < len; i++) {
            buf[off + i] ^= keystream[i];
        }
    }
}
