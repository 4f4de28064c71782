package io.tern.netty.stream;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Caps the connections open at once, in total and per client IP, over all relay threads. Taken
 * once per accepted connection and released when it closes, so a lock is cheap enough.
 */
public final class ConnectionLimiter {
    private final int maxTotal;
    private final int maxPerIp;
    private final Map<InetAddress, Integer> perIp = new HashMap<>();
    private int total;

    public ConnectionLimiter(int maxTotal, int maxPerIp) {
        this.maxTotal = maxTotal;
        this.maxPerIp = maxPerIp;
    }

    /** Takes a slot for {@code ip}; returns null on success, else the limit that refused it. */
    public synchronized StreamEvent tryAcquire(InetAddress ip) {
        if (total >= maxTotal) {
            return StreamEvent.REJECTED_TOTAL_LIMIT;
        }
        int fromIp = perIp.getOrDefault(ip, 0);
        if (fromIp >= maxPerIp) {
            return StreamEvent.REJECTED_PER_IP_LIMIT;
        }
        perIp.put(ip, fromIp + 1);
        total++;
        return null;
    }

    public synchronized void release(InetAddress ip) {
        Integer fromIp = perIp.get(ip);
        if (fromIp == null) {
            return;
        }
        if (fromIp == 1) {
            perIp.remove(ip);
        } else {
            perIp.put(ip, fromIp - 1);
        }
        total--;
    }

    /** Connections open now. */
    public synchronized int total() {
        return total;
    }
}
