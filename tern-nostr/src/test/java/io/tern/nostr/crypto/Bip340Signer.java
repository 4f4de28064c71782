package io.tern.nostr.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.bouncycastle.math.ec.ECPoint;

/**
 * BIP-340 signing ("Default Signing", steps 1–11) on BouncyCastle's arithmetic, for tests only:
 * it lets the two verifiers be checked on signatures neither library made itself.
 */
final class Bip340Signer {
    private static final byte[] AUX =
            BouncyCastleSchnorrVerifier.sha256("BIP0340/aux".getBytes(StandardCharsets.US_ASCII));
    private static final byte[] NONCE =
            BouncyCastleSchnorrVerifier.sha256("BIP0340/nonce".getBytes(StandardCharsets.US_ASCII));
    private static final byte[] CHALLENGE =
            BouncyCastleSchnorrVerifier.sha256("BIP0340/challenge".getBytes(StandardCharsets.US_ASCII));
    private static final BigInteger N = BouncyCastleSchnorrVerifier.N;

    private Bip340Signer() {}

    static byte[] publicKey(byte[] secret) {
        return bytes(BouncyCastleSchnorrVerifier.G
                .multiply(new BigInteger(1, secret))
                .normalize()
                .getAffineXCoord()
                .toBigInteger());
    }

    static byte[] sign(byte[] message, byte[] secret, byte[] auxRand) {
        BigInteger d0 = new BigInteger(1, secret);
        if (d0.signum() == 0 || d0.compareTo(N) >= 0) {
            throw new IllegalArgumentException("secret key out of range");
        }
        ECPoint p = BouncyCastleSchnorrVerifier.G.multiply(d0).normalize();
        BigInteger d = p.getAffineYCoord().testBitZero() ? N.subtract(d0) : d0;
        byte[] px = bytes(p.getAffineXCoord().toBigInteger());
        byte[] t = xor(bytes(d), tagged(AUX, auxRand));
        BigInteger k0 = new BigInteger(1, tagged(NONCE, t, px, message)).mod(N);
        if (k0.signum() == 0) {
            throw new IllegalStateException("nonce is zero");
        }
        ECPoint r = BouncyCastleSchnorrVerifier.G.multiply(k0).normalize();
        BigInteger k = r.getAffineYCoord().testBitZero() ? N.subtract(k0) : k0;
        byte[] rx = bytes(r.getAffineXCoord().toBigInteger());
        BigInteger e = new BigInteger(1, tagged(CHALLENGE, rx, px, message)).mod(N);
        byte[] sig = new byte[64];
        System.arraycopy(rx, 0, sig, 0, 32);
        System.arraycopy(bytes(k.add(e.multiply(d)).mod(N)), 0, sig, 32, 32);
        return sig;
    }

    private static byte[] tagged(byte[] tagHash, byte[]... parts) {
        MessageDigest md = BouncyCastleSchnorrVerifier.taggedHash(tagHash);
        for (byte[] part : parts) {
            md.update(part);
        }
        return md.digest();
    }

    private static byte[] bytes(BigInteger x) {
        byte[] raw = x.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, out, 32 - n, n);
        return out;
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
