package io.tern.srt.crypto;

import io.tern.srt.packet.SrtHeader;
import java.util.random.RandomGenerator;

/**
 * The sending side's keys: a random salt and stream key at start, then libsrt's refresh cycle
 * (HaiCrypt {@code hcryptCtx_Tx_ManageKM}): {@code preAnnounce} packets before {@code refreshRate}
 * packets have used the active key, the next key is announced in the other slot (both keys in one
 * KMREQ); at {@code refreshRate} the sender switches to it; {@code preAnnounce} packets later the
 * old key is withdrawn (a KMREQ with the new key alone).
 */
public final class SendKeys {
    private final String passphrase;
    private final int keyLength;
    private final long refreshRate;
    private final long preAnnounce;
    private final RandomGenerator random;
    private final byte[] salt = new byte[KeyMaterial.SALT_BYTES];
    private final byte[][] keys = new byte[2][];
    private final CtrCipher[] ciphers = new CtrCipher[2];
    private int active;
    private long usedByActive;
    private KeyMaterial announcement;
    private int keySwitches;

    public SendKeys(String passphrase, int keyLength, long refreshRate, long preAnnounce, RandomGenerator random) {
        if (!KeyMaterial.validKeyLength(keyLength)) {
            throw new IllegalArgumentException("key length " + keyLength);
        }
        if (preAnnounce < 1 || preAnnounce * 2 > refreshRate) {
            throw new IllegalArgumentException("pre-announce " + preAnnounce + " for refresh rate " + refreshRate);
        }
        this.passphrase = passphrase;
        this.keyLength = keyLength;
        this.refreshRate = refreshRate;
        this.preAnnounce = preAnnounce;
        this.random = random;
        random.nextBytes(salt);
        keys[0] = newKey();
        ciphers[0] = new CtrCipher(keys[0], salt);
    }

    private byte[] newKey() {
        byte[] k = new byte[keyLength];
        random.nextBytes(k);
        return k;
    }

    /** The keying material for the handshake's KMREQ: the initial (even) key. */
    public KeyMaterial initialMaterial() {
        return KeyMaterial.create(passphrase, salt, keys[0], null);
    }

    public int keyLength() {
        return keyLength;
    }

    /** Encrypts one payload in place and returns the KK flags for its header. */
    public int encrypt(int seq, byte[] buf, int off, int len) {
        usedByActive++;
        if (usedByActive == refreshRate - preAnnounce) {
            int next = 1 - active;
            keys[next] = newKey();
            ciphers[next] = new CtrCipher(keys[next], salt);
            announcement = KeyMaterial.create(passphrase, salt, keys[0], keys[1]);
        } else if (usedByActive == refreshRate) {
            active = 1 - active;
            usedByActive = 0;
            keySwitches++;
        } else if (usedByActive == preAnnounce && keySwitches > 0 && keys[1 - active] != null) {
            keys[1 - active] = null;
            announcement = active == 0
                    ? KeyMaterial.create(passphrase, salt, keys[0], null)
                    : KeyMaterial.create(passphrase, salt, null, keys[1]);
        }
        ciphers[active].apply(seq, buf, off, len);
        return active == 0 ? SrtHeader.KK_EVEN : SrtHeader.KK_ODD;
    }

    /** Keying material the peer has not confirmed yet (send it as a KMREQ until it does), or null. */
    public KeyMaterial announcement() {
        return announcement;
    }

    /** The peer's KMRSP: an echo of what was announced confirms it. */
    public void confirmed(byte[] b, int off, int len) {
        if (announcement == null) {
            return;
        }
        byte[] expected = announcement.encode();
        if (len == expected.length && java.util.Arrays.equals(expected, 0, len, b, off, off + len)) {
            announcement = null;
        }
    }

    public int keySwitches() {
        return keySwitches;
    }
}
