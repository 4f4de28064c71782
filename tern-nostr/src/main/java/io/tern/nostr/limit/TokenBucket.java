package io.tern.nostr.limit;

/**
 * A token bucket on the caller's clock: {@code burst} tokens at most, refilled at
 * {@code perSecond}. Tokens are kept in nanoseconds of refill time so the arithmetic stays exact.
 */
final class TokenBucket {
    private long lastNs;
    private long availableNs;

    TokenBucket(long nowNs, long capacityNs) {
        this.lastNs = nowNs;
        this.availableNs = capacityNs;
    }

    /** Takes one token costing {@code costNs} if there is one; refills first. */
    boolean tryTake(long nowNs, long costNs, long capacityNs) {
        if (nowNs > lastNs) {
            availableNs = Math.min(capacityNs, availableNs + (nowNs - lastNs));
            lastNs = nowNs;
        }
        if (availableNs >= costNs) {
            availableNs -= costNs;
            return true;
        }
        return false;
    }
}
