package io.tern.turn.auth;

import io.tern.stun.address.TransportAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;

/**
 * Stateless nonces: the expiry and an HMAC binding it to the client's IP address, so an
 * unauthenticated flood costs an HMAC and creates no state. The expiry is wall-clock time (epoch
 * seconds), so that every node holding the same key ({@code stateless-nonce-secret}) accepts a
 * nonce another issued, as long as their clocks agree within the nonce lifetime; a nonce whose
 * expiry lies more than {@link #MAX_CLOCK_AHEAD_SECONDS} beyond what this node would issue came
 * from a clock too far ahead, and is stale here. The port is left out: a client's
 * RFC 6062 data connections come from new ports and sign their ConnectionBind with the nonce of
 * the control connection, as coturn's clients do. Each nonce starts with the RFC 8489
 * §9.2 cookie {@code obMatJos2} and the server's security feature bits.
 *
 * <p>Layout: cookie (9) + features (4, base64 of 24 bits) + expiry seconds (16 hex) + MAC (32 hex).
 */
public final class NonceService {
    public static final String COOKIE = "obMatJos2";
    /** Feature bit 0 (the most significant of the 24): PASSWORD-ALGORITHMS is supported. */
    public static final int FEATURE_PASSWORD_ALGORITHMS = 0x80_0000;
    /** Feature bit 1: USERHASH (username anonymity) is supported. */
    public static final int FEATURE_USERNAME_ANONYMITY = 0x40_0000;

    /** How far the issuing node's clock may run ahead of this one's, as coturn allows "a few seconds". */
    public static final long MAX_CLOCK_AHEAD_SECONDS = 5;

    public static final int VALID = 0;
    public static final int STALE = 1;

    private static final int EXPIRY_HEX = 16;
    private static final int MAC_BYTES = 16;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final Mac mac;
    private final long lifetimeNs;
    private final byte[] prefix;
    private final byte[] macInput = new byte[8 + 1 + 16];
    private final byte[] macOutput = new byte[32];
    private final byte[] nonce;

    /**
     * @param key        HMAC key, shared by every engine of one server so nonces work across threads
     * @param lifetimeNs how long a nonce stays valid ({@code stale-nonce})
     * @param features   security feature bits advertised in the cookie
     */
    public NonceService(byte[] key, long lifetimeNs, int features) {
        try {
            this.mac = Mac.getInstance("HmacSHA256");
            this.mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        this.lifetimeNs = lifetimeNs;
        byte[] featureBytes = {(byte) (features >>> 16), (byte) (features >>> 8), (byte) features};
        this.prefix = (COOKIE + Base64.getEncoder().encodeToString(featureBytes)).getBytes(StandardCharsets.US_ASCII);
        this.nonce = new byte[prefix.length + EXPIRY_HEX + 2 * MAC_BYTES];
        System.arraycopy(prefix, 0, nonce, 0, prefix.length);
    }

    /**
     * Writes a fresh nonce for {@code client} into an internal array and returns it. The array is
     * reused by the next call.
     *
     * @param epochMillis the wall clock now
     */
    public byte[] issue(TransportAddress client, long epochMillis) {
        long expirySeconds = expirySeconds(epochMillis);
        int p = prefix.length;
        for (int i = EXPIRY_HEX - 1; i >= 0; i--) {
            nonce[p + i] = HEX[(int) ((expirySeconds >>> (4 * (EXPIRY_HEX - 1 - i))) & 0xF)];
        }
        computeMac(expirySeconds, client);
        int m = p + EXPIRY_HEX;
        for (int i = 0; i < MAC_BYTES; i++) {
            nonce[m + 2 * i] = HEX[(macOutput[i] >>> 4) & 0xF];
            nonce[m + 2 * i + 1] = HEX[macOutput[i] & 0xF];
        }
        return nonce;
    }

    /**
     * {@link #VALID} when the nonce was issued by this key to this client's IP, has not expired and
     * does not come from a clock too far ahead.
     *
     * @param epochMillis the wall clock now
     */
    public int check(DirectBuffer buffer, int offset, int length, TransportAddress client, long epochMillis) {
        if (length != nonce.length) {
            return STALE;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (buffer.getByte(offset + i) != prefix[i]) {
                return STALE;
            }
        }
        long expirySeconds = 0;
        for (int i = 0; i < EXPIRY_HEX; i++) {
            int digit = Character.digit(buffer.getByte(offset + prefix.length + i), 16);
            if (digit < 0) {
                return STALE;
            }
            expirySeconds = (expirySeconds << 4) | digit;
        }
        computeMac(expirySeconds, client);
        int m = offset + prefix.length + EXPIRY_HEX;
        int diff = 0;
        for (int i = 0; i < MAC_BYTES; i++) {
            diff |= buffer.getByte(m + 2 * i) ^ HEX[(macOutput[i] >>> 4) & 0xF];
            diff |= buffer.getByte(m + 2 * i + 1) ^ HEX[macOutput[i] & 0xF];
        }
        if (diff != 0
                || expirySeconds < Math.floorDiv(epochMillis, 1000L)
                || expirySeconds > expirySeconds(epochMillis) + MAX_CLOCK_AHEAD_SECONDS) {
            return STALE;
        }
        return VALID;
    }

    /** The HMAC key of {@code stateless-nonce-secret}, derived as coturn does: SHA-256("coturn-stateless-nonce-v1" || secret). */
    public static byte[] keyFromSecret(String secret) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update("coturn-stateless-nonce-v1".getBytes(StandardCharsets.US_ASCII));
            return sha256.digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private long expirySeconds(long epochMillis) {
        return Math.floorDiv(epochMillis, 1000L) + lifetimeNs / 1_000_000_000L;
    }

    private void computeMac(long expirySeconds, TransportAddress client) {
        for (int i = 0; i < 8; i++) {
            macInput[i] = (byte) (expirySeconds >>> (56 - 8 * i));
        }
        macInput[8] = (byte) client.family();
        if (client.isIpv4()) {
            int ip = client.ipv4();
            for (int i = 0; i < 16; i++) {
                macInput[9 + i] = i < 4 ? (byte) (ip >>> (24 - 8 * i)) : 0;
            }
        } else {
            System.arraycopy(client.ipv6Bytes(), 0, macInput, 9, 16);
        }
        mac.update(macInput, 0, macInput.length);
        try {
            mac.doFinal(macOutput, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
