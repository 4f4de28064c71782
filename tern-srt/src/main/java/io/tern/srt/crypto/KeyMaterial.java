package io.tern.srt.crypto;

import io.tern.srt.packet.Bytes;
import java.util.Arrays;

/**
 * The keying material message (KMmsg, draft-sharabayko-srt §3.2.2; HaiCrypt {@code hcrypt_msg.h}):
 * the salt and the stream encrypting keys (even, odd, or both) wrapped under the KEK. It travels
 * in the KMREQ/KMRSP handshake extensions and, for a key refresh, in USER control packets.
 *
 * <pre>
 * |0|Vers(3)|PT(4)|   Sign (16) = "HAI"   | resv(6) |KK(2)|
 * |                       KEKI (32) = 0                    |
 * | Cipher=2 (CTR) | Auth=0 | SE=2 (SRT) |     Resv1      |
 * |           Resv2 (16)       | SLen/4 (8) | KLen/4 (8)   |
 * | Salt (SLen) ... | Wrapped keys (8 + KLen × keys) ...   |
 * </pre>
 */
public final class KeyMaterial {
    public static final int SIGN = (('H' - '@') << 10) | (('A' - '@') << 5) | ('I' - '@');
    public static final int FLAG_EVEN = 1;
    public static final int FLAG_ODD = 2;
    public static final int FLAG_BOTH = 3;
    public static final int SALT_BYTES = 16;
    private static final int HEADER_BYTES = 16;
    private static final int VERSION = 1;
    private static final int PT_KM = 2;
    private static final int CIPHER_AES_CTR = 2;
    private static final int SE_SRT = 2;

    private final int keyFlags;
    private final int keyLength;
    private final byte[] salt;
    private final byte[] wrapped;

    private KeyMaterial(int keyFlags, int keyLength, byte[] salt, byte[] wrapped) {
        this.keyFlags = keyFlags;
        this.keyLength = keyLength;
        this.salt = salt;
        this.wrapped = wrapped;
    }

    public static boolean validKeyLength(int n) {
        return n == 16 || n == 24 || n == 32;
    }

    /** Wraps {@code even} and/or {@code odd} (null when absent) under the passphrase's KEK. */
    public static KeyMaterial create(String passphrase, byte[] salt, byte[] even, byte[] odd) {
        byte[] first = even != null ? even : odd;
        int keyLength = first.length;
        int flags = (even != null ? FLAG_EVEN : 0) | (odd != null ? FLAG_ODD : 0);
        byte[] keys = new byte[Integer.bitCount(flags) * keyLength];
        int o = 0;
        if (even != null) {
            System.arraycopy(even, 0, keys, o, keyLength);
            o += keyLength;
        }
        if (odd != null) {
            System.arraycopy(odd, 0, keys, o, keyLength);
        }
        byte[] kek = PassphraseKdf.kek(passphrase, salt, keyLength);
        return new KeyMaterial(flags, keyLength, salt.clone(), KeyWrap.wrap(kek, keys));
    }

    public static KeyMaterial parse(byte[] b, int off, int len) throws SrtCryptoException {
        if (len < HEADER_BYTES + SALT_BYTES + KeyWrap.OVERHEAD_BYTES + 16) {
            throw new SrtCryptoException("keying material of " + len + " bytes", false);
        }
        int v = Bytes.u8(b, off);
        if ((v & 0x80) != 0 || (v >>> 4) != VERSION || (v & 0x0F) != PT_KM) {
            throw new SrtCryptoException("keying material version/type byte " + v, false);
        }
        if (Bytes.u16(b, off + 1) != SIGN) {
            throw new SrtCryptoException("keying material signature", false);
        }
        int flags = Bytes.u8(b, off + 3) & FLAG_BOTH;
        if (flags == 0) {
            throw new SrtCryptoException("keying material without a key", false);
        }
        if (Bytes.u8(b, off + 8) != CIPHER_AES_CTR || Bytes.u8(b, off + 9) != 0 || Bytes.u8(b, off + 10) != SE_SRT) {
            throw new SrtCryptoException("unsupported cipher/auth/encapsulation", false);
        }
        int saltLen = Bytes.u8(b, off + 14) * 4;
        int keyLen = Bytes.u8(b, off + 15) * 4;
        if (saltLen != SALT_BYTES || !validKeyLength(keyLen)) {
            throw new SrtCryptoException("salt " + saltLen + " / key " + keyLen + " bytes", false);
        }
        int wrappedLen = Integer.bitCount(flags) * keyLen + KeyWrap.OVERHEAD_BYTES;
        if (len < HEADER_BYTES + saltLen + wrappedLen) {
            throw new SrtCryptoException("keying material truncated", false);
        }
        byte[] salt = Arrays.copyOfRange(b, off + HEADER_BYTES, off + HEADER_BYTES + saltLen);
        int w = off + HEADER_BYTES + saltLen;
        return new KeyMaterial(flags, keyLen, salt, Arrays.copyOfRange(b, w, w + wrappedLen));
    }

    public int encodedLength() {
        return HEADER_BYTES + salt.length + wrapped.length;
    }

    public int encode(byte[] b, int off) {
        Arrays.fill(b, off, off + HEADER_BYTES, (byte) 0);
        b[off] = (byte) ((VERSION << 4) | PT_KM);
        Bytes.put16(b, off + 1, SIGN);
        b[off + 3] = (byte) keyFlags;
        b[off + 8] = CIPHER_AES_CTR;
        b[off + 10] = SE_SRT;
        b[off + 14] = (byte) (salt.length / 4);
        b[off + 15] = (byte) (keyLength / 4);
        System.arraycopy(salt, 0, b, off + HEADER_BYTES, salt.length);
        System.arraycopy(wrapped, 0, b, off + HEADER_BYTES + salt.length, wrapped.length);
        return off + encodedLength();
    }

    public byte[] encode() {
        byte[] b = new byte[encodedLength()];
        encode(b, 0);
        return b;
    }

    /** The keys: {@code [even, odd]}, null where absent; the first wrapped key is the even one. */
    public byte[][] unwrap(String passphrase) throws SrtCryptoException {
        byte[] kek = PassphraseKdf.kek(passphrase, salt, keyLength);
        byte[] keys = KeyWrap.unwrap(kek, wrapped, 0, wrapped.length);
        byte[][] out = new byte[2][];
        int o = 0;
        if ((keyFlags & FLAG_EVEN) != 0) {
            out[0] = Arrays.copyOfRange(keys, o, o + keyLength);
            o += keyLength;
        }
        if ((keyFlags & FLAG_ODD) != 0) {
            out[1] = Arrays.copyOfRange(keys, o, o + keyLength);
        }
        return out;
    }

    public int keyFlags() {
        return keyFlags;
    }

    public int keyLength() {
        return keyLength;
    }

    public byte[] salt() {
        return salt.clone();
    }
}
