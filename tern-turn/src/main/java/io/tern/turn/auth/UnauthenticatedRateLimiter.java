package io.tern.turn.auth;

import io.tern.stun.address.TransportAddress;

/**
 * Bounds how many 401 answers one source IP gets, so the relay can't be used to reflect traffic
 * at a spoofed victim. Token buckets live in a fixed array indexed by a hash of the IP: memory is
 * constant whatever the number of sources, and a collision only makes the limit stricter.
 */
public final class UnauthenticatedRateLimiter {
    private final int mask;
    private final long[] tokensAtNs;
    private final double[] tokens;
    private final double perSecond;
    private final double burst;

    /**
     * @param buckets   number of buckets, rounded up to a power of two
     * @param perSecond sustained answers per second per source
     * @param burst     answers a quiet source may get at once
     */
    public UnauthenticatedRateLimiter(int buckets, double perSecond, double burst) {
        int size = Integer.highestOneBit(Math.max(1, buckets - 1)) << 1;
        this.mask = size - 1;
        this.tokensAtNs = new long[size];
        this.tokens = new double[size];
        this.perSecond = perSecond;
        this.burst = burst;
        java.util.Arrays.fill(tokens, -1);
    }

    /** Takes one token for this source; false means stay silent. */
    public boolean tryAcquire(TransportAddress source, long nowNs) {
        int slot = hash(source) & mask;
        double available;
        if (tokens[slot] < 0) {
            available = burst;
        } else {
            double refill = (nowNs - tokensAtNs[slot]) / 1e9 * perSecond;
            available = Math.min(burst, tokens[slot] + Math.max(0, refill));
        }
        tokensAtNs[slot] = nowNs;
        if (available < 1) {
            tokens[slot] = available;
            return false;
        }
        tokens[slot] = available - 1;
        return true;
    }

    private static int hash(TransportAddress source) {
        int h;
        if (source.isIpv4()) {
            h = source.ipv4();
        } else {
            h = java.util.Arrays.hashCode(source.ipv6Bytes());
        }
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
