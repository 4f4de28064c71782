package io.tern.nostr.crypto;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECAlgorithms;
import org.bouncycastle.math.ec.ECCurve;
import org.bouncycastle.math.ec.ECPoint;

/**
 * BIP-340 verification on BouncyCastle's secp256k1 arithmetic: the pure-Java fallback for when the
 * native library cannot load. The curve arithmetic is BouncyCastle's; this class only follows the
 * verification steps of BIP-340 ("Verification", steps 1–7).
 */
public final class BouncyCastleSchnorrVerifier implements SchnorrVerifier {
    static final X9ECParameters SECP256K1 = CustomNamedCurves.getByName("secp256k1");
    static final ECCurve CURVE = SECP256K1.getCurve();
    static final ECPoint G = SECP256K1.getG();
    static final BigInteger N = SECP256K1.getN();
    static final BigInteger P = CURVE.getField().getCharacteristic();

    private static final byte[] CHALLENGE_TAG_HASH = sha256("BIP0340/challenge".getBytes(StandardCharsets.US_ASCII));

    @Override
    public boolean verify(byte[] signature, byte[] message, byte[] publicKey) {
        if (signature.length != 64 || message.length != 32 || publicKey.length != 32) {
            return false;
        }
        ECPoint pk = liftX(publicKey);
        if (pk == null) {
            return false;
        }
        BigInteger r = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 0, 32));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(signature, 32, 64));
        if (r.compareTo(P) >= 0 || s.compareTo(N) >= 0) {
            return false;
        }
        MessageDigest challenge = taggedHash(CHALLENGE_TAG_HASH);
        challenge.update(signature, 0, 32);
        challenge.update(publicKey);
        challenge.update(message);
        BigInteger e = new BigInteger(1, challenge.digest()).mod(N);
        // R = s*G - e*P
        ECPoint rPoint = ECAlgorithms.sumOfTwoMultiplies(G, s, pk.negate(), e).normalize();
        return !rPoint.isInfinity()
                && !rPoint.getAffineYCoord().testBitZero()
                && rPoint.getAffineXCoord().toBigInteger().equals(r);
    }

    /** The point with x-coordinate {@code x} and even y, or null when there is none (BIP-340 lift_x). */
    static ECPoint liftX(byte[] x) {
        byte[] compressed = new byte[33];
        compressed[0] = 0x02;
        System.arraycopy(x, 0, compressed, 1, 32);
        try {
            return CURVE.decodePoint(compressed);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static MessageDigest taggedHash(byte[] tagHash) {
        MessageDigest d = newSha256();
        d.update(tagHash);
        d.update(tagHash);
        return d;
    }

    static byte[] sha256(byte[] data) {
        return newSha256().digest(data);
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK must provide SHA-256", e);
        }
    }

    @Override
    public String name() {
        return "bouncycastle";
    }
}
