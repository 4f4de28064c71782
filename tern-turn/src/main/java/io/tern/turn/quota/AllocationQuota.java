package io.tern.turn.quota;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code user-quota}, {@code total-quota} and the hard bound on open allocations, shared by every
 * relay thread. Consulted once per Allocate and once per release, never per packet.
 */
public final class AllocationQuota {
    private final int userQuota;
    private final int totalQuota;
    private final int maxAllocations;
    private final Map<String, Integer> perUser = new HashMap<>();
    private int total;

    /**
     * @param userQuota      allocations per user, 0 for no limit
     * @param totalQuota     allocations in all, 0 for no limit
     * @param maxAllocations the server's own hard bound, always enforced
     */
    public AllocationQuota(int userQuota, int totalQuota, int maxAllocations) {
        this.userQuota = userQuota;
        this.totalQuota = totalQuota;
        this.maxAllocations = maxAllocations;
    }

    /** Counts an allocation for {@code user}; false when a quota is reached (486). */
    public synchronized boolean tryAcquire(String user) {
        if (total >= maxAllocations || (totalQuota > 0 && total >= totalQuota)) {
            return false;
        }
        int current = perUser.getOrDefault(user, 0);
        if (userQuota > 0 && current >= userQuota) {
            return false;
        }
        perUser.put(user, current + 1);
        total++;
        return true;
    }

    public synchronized void release(String user) {
        Integer current = perUser.get(user);
        if (current == null) {
            return;
        }
        if (current <= 1) {
            perUser.remove(user);
        } else {
            perUser.put(user, current - 1);
        }
        total--;
    }

    public synchronized int total() {
        return total;
    }
}
