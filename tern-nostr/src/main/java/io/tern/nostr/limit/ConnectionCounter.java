package io.tern.nostr.limit;

import java.util.HashMap;
import java.util.Map;

/** Open connections per client IP, bounded by {@code maxPerIp}. */
public final class ConnectionCounter {
    private final int maxPerIp;
    private final Map<String, int[]> open = new HashMap<>();

    public ConnectionCounter(int maxPerIp) {
        this.maxPerIp = maxPerIp;
    }

    /** Counts one more connection from {@code ip} and returns true, or returns false at the limit. */
    public boolean tryOpen(String ip) {
        int[] n = open.computeIfAbsent(ip, k -> new int[1]);
        if (n[0] >= maxPerIp) {
            return false;
        }
        n[0]++;
        return true;
    }

    public void close(String ip) {
        int[] n = open.get(ip);
        if (n != null && --n[0] <= 0) {
            open.remove(ip);
        }
    }

    public int openFrom(String ip) {
        int[] n = open.get(ip);
        return n == null ? 0 : n[0];
    }

    /** Distinct IPs with at least one open connection. */
    public int ips() {
        return open.size();
    }
}
