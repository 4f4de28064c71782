package io.tern.hls.swarm;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.spec.PKCS8EncodedKeySpec;

/**
 * The origin's long-term identity: an Ed25519 key that signs nothing but session endorsements.
 * Kept in a file by the server (PKCS#8); its public key is what viewers may pin.
 */
public final class OriginKey {
    private final KeyPair pair;
    private final byte[] publicRaw;

    private OriginKey(KeyPair pair) {
        this.pair = pair;
        this.publicRaw = Ed25519.publicRaw(pair.getPublic());
    }

    public static OriginKey fromSeed(byte[] seed) {
        return new OriginKey(Ed25519.fromSeed(seed));
    }

    public static OriginKey generate(SecureRandom random) {
        return new OriginKey(Ed25519.generate(random));
    }

    /** The key a PKCS#8 PrivateKeyInfo (RFC 8410 §7) holds; IllegalArgumentException if it holds no Ed25519 key. */
    public static OriginKey fromPkcs8(byte[] der) {
        try {
            var key = KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
            return fromSeed(Ed25519.seed(key));
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("not an Ed25519 private key in PKCS#8", e);
        }
    }

    /** The private key as PKCS#8 DER, for the key file. */
    public byte[] pkcs8() {
        return pair.getPrivate().getEncoded();
    }

    /** The raw 32-byte public key. */
    public byte[] publicRaw() {
        return publicRaw.clone();
    }

    /** The public key as printed at start and served to viewers: base64url of the raw bytes. */
    public String publicB64url() {
        return SwarmMessages.b64url(publicRaw);
    }

    /** Endorses {@code sessionPublicRaw} for one stream instance until {@code notAfterEpochS}. */
    public SessionEndorsement endorse(String stream, String instance, byte[] sessionPublicRaw, long notAfterEpochS) {
        byte[] sig = Ed25519.sign(
                pair.getPrivate(), SwarmMessages.session(stream, instance, sessionPublicRaw, notAfterEpochS));
        return new SessionEndorsement(sessionPublicRaw, notAfterEpochS, sig);
    }
}
