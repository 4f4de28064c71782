package io.tern.server.origin.swarm;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per client IP address: {@code perMinute} requests a minute, in bursts of as many.
 * Called from every HTTP event loop. The table is bounded: past {@link #MAX_ADDRESSES} it forgets
 * the addresses whose buckets have refilled (they are indistinguishable from new ones), and while
 * it is still full a new address is refused, so a flood of addresses costs memory up to the bound
 * and nothing more.
 */
public final class IpRateLimiter {
    static final int MAX_ADDRESSES = 65_536;
    private static final long MINUTE_NS = 60_000_000_000L;

    private final int perMinute;
    private final long nsPerToken;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<InetAddress, Bucket> buckets = new ConcurrentHashMap<>();

    public IpRateLimiter(int perMinute, LongSupplier nanoTime) {
        if (perMinute < 1) {
            throw new IllegalArgumentException("perMinute must be at least 1, not " + perMinute);
        }
        this.perMinute = perMinute;
        this.nsPerToken = MINUTE_NS / perMinute;
        this.nanoTime = nanoTime;
    }

    /** 0 if {@code address} may ask now (and takes a token), else the seconds until it may. */
    public long retryAfterSeconds(InetAddress address) {
        long nowNs = nanoTime.getAsLong();
        if (buckets.size() >= MAX_ADDRESSES && !buckets.containsKey(address)) {
            buckets.values().removeIf(b -> b.full(nowNs));
            if (buckets.size() >= MAX_ADDRESSES) {
                return 1;
            }
        }
        Bucket bucket = buckets.computeIfAbsent(address, a -> new Bucket(nowNs - MINUTE_NS));
        return bucket.take(nowNs);
    }

    /** Addresses tracked now. */
    int size() {
        return buckets.size();
    }

    private final class Bucket {
        /** When the bucket was empty: tokens = (now - emptyAtNs) / nsPerToken, capped at perMinute. */
        private long emptyAtNs;

        Bucket(long emptyAtNs) {
            this.emptyAtNs = emptyAtNs;
        }

        synchronized long take(long nowNs) {
            emptyAtNs = Math.max(emptyAtNs, nowNs - (long) perMinute * nsPerToken);
            if (nowNs - emptyAtNs < nsPerToken) {
                long waitNs = nsPerToken - (nowNs - emptyAtNs);
                return Math.max(1, (waitNs + 999_999_999L) / 1_000_000_000L);
            }
            emptyAtNs += nsPerToken;
            return 0;
        }

        synchronized boolean full(long nowNs) {
            return nowNs - emptyAtNs >= (long) perMinute * nsPerToken;
        }
    }
}
