package io.tern.srt.handshake;

import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.util.random.RandomGenerator;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * The listener's SYN cookie: an HMAC of the caller's address and port and the current minute under
 * a secret drawn at start, so the induction answer creates no state and a conclusion proves the
 * caller received it. As in libsrt ({@code bakeCookie}), the cookie of the previous minute is
 * still accepted, so a handshake that straddles a minute boundary succeeds.
 */
public final class SynCookie {
    static final long BUCKET_NS = 60_000_000_000L;

    private final Mac mac;
    private final byte[] out = new byte[32];
    private final byte[] input = new byte[16 + 2 + 8];

    public SynCookie(RandomGenerator random) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    public int cookie(InetSocketAddress peer, long nowNs) {
        return compute(peer, Math.floorDiv(nowNs, BUCKET_NS));
    }

    public boolean verify(InetSocketAddress peer, int cookie, long nowNs) {
        long bucket = Math.floorDiv(nowNs, BUCKET_NS);
        return compute(peer, bucket) == cookie || compute(peer, bucket - 1) == cookie;
    }

    private int compute(InetSocketAddress peer, long bucket) {
        byte[] addr = peer.getAddress().getAddress();
        java.util.Arrays.fill(input, (byte) 0);
        System.arraycopy(addr, 0, input, 0, addr.length);
        int port = peer.getPort();
        input[16] = (byte) (port >>> 8);
        input[17] = (byte) port;
        for (int i = 0; i < 8; i++) {
            input[18 + i] = (byte) (bucket >>> (56 - 8 * i));
        }
        mac.update(input);
        try {
            mac.doFinal(out, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        return ((out[0] & 0xFF) << 24) | ((out[1] & 0xFF) << 16) | ((out[2] & 0xFF) << 8) | (out[3] & 0xFF);
    }
}
