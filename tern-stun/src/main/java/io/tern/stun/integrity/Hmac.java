package io.tern.stun.integrity;

import java.security.DigestException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;

/**
 * HMAC (RFC 2104) over a {@link MessageDigest} with a 64-byte block (SHA-1, SHA-256), writing the
 * result into the caller's array. {@code javax.crypto.Mac} allocates the inner digest on every
 * {@code doFinal}, even {@code doFinal(out, offset)}; {@code MessageDigest.digest(buf, offset, len)}
 * does not. Keying builds the pads from the key and allocates nothing either, so one instance can
 * serve every user in turn.
 */
final class Hmac {
    private static final int BLOCK_BYTES = 64;

    private final MessageDigest digest;
    private final int macLength;
    private final byte[] innerPad = new byte[BLOCK_BYTES];
    private final byte[] outerPad = new byte[BLOCK_BYTES];
    private final byte[] mac;

    Hmac(String digestAlgorithm) {
        try {
            this.digest = MessageDigest.getInstance(digestAlgorithm);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JDK lacks " + digestAlgorithm, e);
        }
        this.macLength = digest.getDigestLength();
        this.mac = new byte[macLength];
    }

    /** Starts a MAC under {@code key}; any length, empty included (keys over the block size are hashed first). */
    void start(byte[] key) {
        digest.reset();
        int keyLength = key.length;
        if (keyLength > BLOCK_BYTES) {
            digest.update(key);
            finishDigest(innerPad);
            keyLength = macLength;
        } else {
            System.arraycopy(key, 0, innerPad, 0, keyLength);
        }
        for (int i = 0; i < BLOCK_BYTES; i++) {
            byte k = i < keyLength ? innerPad[i] : 0;
            innerPad[i] = (byte) (k ^ 0x36);
            outerPad[i] = (byte) (k ^ 0x5C);
        }
        digest.update(innerPad);
    }

    void update(byte[] input, int offset, int length) {
        digest.update(input, offset, length);
    }

    /**
     * Finishes the MAC started by {@link #start}, writing its first {@code min(out.length, macLength())}
     * bytes to {@code out}.
     */
    void finish(byte[] out) {
        finishDigest(mac);
        digest.update(outerPad);
        digest.update(mac);
        if (out.length >= macLength) {
            finishDigest(out);
        } else {
            finishDigest(mac);
            System.arraycopy(mac, 0, out, 0, out.length);
        }
    }

    private void finishDigest(byte[] out) {
        try {
            digest.digest(out, 0, macLength);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
    }
}
