package io.tern.nostr.testing;

import io.tern.nostr.crypto.Secp256k1JniVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.event.Hex;
import java.util.List;
import java.util.Random;

/** A test identity: a secret key and its x-only pubkey; signs events with libsecp256k1. */
public final class Keys {
    private static final Secp256k1JniVerifier SECP = load();

    private final byte[] secret;
    private final String pubkey;
    private final Random auxRandom;

    private Keys(byte[] secret, long seed) {
        this.secret = secret;
        this.pubkey = Hex.encode(SECP.xOnlyPublicKey(secret));
        this.auxRandom = new Random(seed);
    }

    private static Secp256k1JniVerifier load() {
        try {
            return Secp256k1JniVerifier.load();
        } catch (Exception e) {
            throw new IllegalStateException("libsecp256k1 must load for the tests", e);
        }
    }

    public static Secp256k1JniVerifier secp() {
        return SECP;
    }

    /** A deterministic key from a seed. */
    public static Keys fromSeed(long seed) {
        Random r = new Random(seed);
        byte[] sk = new byte[32];
        do {
            r.nextBytes(sk);
        } while (!validSecret(sk));
        return new Keys(sk, seed);
    }

    private static boolean validSecret(byte[] sk) {
        java.math.BigInteger k = new java.math.BigInteger(1, sk);
        return k.signum() > 0
                && k.compareTo(new java.math.BigInteger(
                                "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16))
                        < 0;
    }

    public String pubkey() {
        return pubkey;
    }

    public byte[] secret() {
        return secret.clone();
    }

    /** A correctly signed event. */
    public Event sign(long createdAt, int kind, List<List<String>> tags, String content) {
        byte[] id = new EventHasher().id(pubkey, createdAt, kind, tags, content);
        byte[] aux = new byte[32];
        auxRandom.nextBytes(aux);
        byte[] sig = SECP.sign(id, secret, aux);
        return Event.of(Hex.encode(id), pubkey, createdAt, kind, tags, content, Hex.encode(sig));
    }

    /** The event as a client would send it. */
    public static String eventMessage(Event e) {
        return "[\"EVENT\"," + new String(e.json(), java.nio.charset.StandardCharsets.UTF_8) + "]";
    }
}
