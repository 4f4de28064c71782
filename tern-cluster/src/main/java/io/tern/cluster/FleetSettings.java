package io.tern.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * How a relay joins the fleet.
 *
 * @param redis      {@code --cluster-redis}
 * @param nodeId     {@code --cluster-node-id}: unique in the fleet
 * @param leaseTtl   {@code --cluster-lease-ttl}: how long a crashed node's allocations and
 *                   registration outlive it; refreshed every third of it
 * @param failClosed {@code --cluster-redis-fail closed}: Allocates are refused (508) while Redis is unreachable
 * @param realm      the realm the quotas count in
 * @param userQuota  {@code user-quota}, fleet-wide; 0 for none
 * @param totalQuota {@code total-quota}, fleet-wide; 0 for none
 */
public record FleetSettings(
        RedisAddress redis,
        String nodeId,
        Duration leaseTtl,
        boolean failClosed,
        String realm,
        int userQuota,
        int totalQuota) {
    /** The shortest lease TTL: refreshes every third of it must stay well apart from Redis round trips. */
    public static final Duration MIN_LEASE_TTL = Duration.ofSeconds(1);

    public FleetSettings {
        Objects.requireNonNull(redis, "redis");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(realm, "realm");
        if (leaseTtl.compareTo(MIN_LEASE_TTL) < 0 || leaseTtl.toMillis() > LeaseScripts.MAX_TTL_MS) {
            throw new IllegalArgumentException("lease TTL " + leaseTtl + " outside 1 s to 1 h");
        }
    }
}
