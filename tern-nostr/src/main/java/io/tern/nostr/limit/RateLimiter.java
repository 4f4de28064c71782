package io.tern.nostr.limit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Token buckets by key (an IP address, a pubkey): {@code perSecond} sustained, {@code burst} at
 * once. At most {@code maxKeys} buckets are kept, least recently used first out; a key that comes
 * back after eviction starts with a full bucket, which only matters past {@code maxKeys} distinct
 * active keys. A rate of 0 disables the limit.
 */
public final class RateLimiter {
    private final long costNs;
    private final long capacityNs;
    private final Map<String, TokenBucket> buckets;

    public RateLimiter(double perSecond, int burst, int maxKeys) {
        if (perSecond < 0 || burst < 1 || maxKeys < 1) {
            throw new IllegalArgumentException("rate " + perSecond + ", burst " + burst + ", keys " + maxKeys);
        }
        this.costNs = perSecond == 0 ? 0 : Math.max(1, Math.round(1e9 / perSecond));
        this.capacityNs = costNs * burst;
        this.buckets = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, TokenBucket> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /** True (and one token taken) when {@code key} may act now. */
    public boolean tryAcquire(String key, long nowNs) {
        if (costNs == 0) {
            return true;
        }
        TokenBucket b = buckets.get(key);
        if (b == null) {
            b = new TokenBucket(nowNs, capacityNs);
            buckets.put(key, b);
        }
        return b.tryTake(nowNs, costNs, capacityNs);
    }

    public int trackedKeys() {
        return buckets.size();
    }
}
