package io.tern.turn.allocation;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The relay port range ({@code min-port}..{@code max-port}) for one relay IP. Not thread-safe: the
 * engines of a server reach it only through {@link io.tern.turn.engine.SharedState}, once per
 * allocation, never per packet. Ports are handed out from a random starting point so that relay ports are hard to
 * guess (RFC 8656 §7.2 recommends it), and EVEN-PORT reservations (R bit) hold the odd port
 * above an even one.
 */
public final class RelayPortPool {
    private final int minPort;
    private final int maxPort;
    private final BitSet used;
    private final RandomGenerator random;
    private final Map<Long, long[]> reservations = new HashMap<>();

    /** @param random where each search for a free port starts; the pool's own, since it is shared */
    public RelayPortPool(int minPort, int maxPort, RandomGenerator random) {
        if (minPort < 1 || maxPort > 65535 || minPort > maxPort) {
            throw new IllegalArgumentException("bad relay port range " + minPort + "-" + maxPort);
        }
        this.minPort = minPort;
        this.maxPort = maxPort;
        this.used = new BitSet(maxPort - minPort + 1);
        this.random = random;
    }

    public int size() {
        return maxPort - minPort + 1;
    }

    /**
     * Takes a free port, or -1 when none is left. With {@code evenOnly} the port is even; with
     * {@code reserveNext} as well, the port above it is free and taken too.
     */
    public int acquire(boolean evenOnly, boolean reserveNext, int[] skip, int skipCount) {
        int span = size();
        int start = random.nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = minPort + (start + i) % span;
            if (used.get(port - minPort) || contains(skip, skipCount, port)) {
                continue;
            }
            if (evenOnly && (port & 1) != 0) {
                continue;
            }
            if (reserveNext) {
                if (port + 1 > maxPort || used.get(port + 1 - minPort)) {
                    continue;
                }
                used.set(port + 1 - minPort);
            }
            used.set(port - minPort);
            return port;
        }
        return -1;
    }

    /** Records that {@code port}, already taken, is held for whoever presents {@code token}. */
    public void reserve(long token, int port, long expiresAtNs) {
        reservations.put(token, new long[] {port, expiresAtNs});
    }

    /** Hands over a reserved port, or -1 when the token is unknown or has expired (508). */
    public int claim(long token, long nowNs) {
        expireReservations(nowNs);
        long[] reservation = reservations.remove(token);
        return reservation == null ? -1 : (int) reservation[0];
    }

    /** Frees the ports of reservations nobody claimed in time. */
    public void expireReservations(long nowNs) {
        var it = reservations.values().iterator();
        while (it.hasNext()) {
            long[] reservation = it.next();
            if (reservation[1] <= nowNs) {
                used.clear((int) reservation[0] - minPort);
                it.remove();
            }
        }
    }

    public int reservations() {
        return reservations.size();
    }

    public void release(int port) {
        if (port >= minPort && port <= maxPort) {
            used.clear(port - minPort);
        }
    }

    public int inUse() {
        return used.cardinality();
    }

    private static boolean contains(int[] ports, int count, int port) {
        for (int i = 0; i < count; i++) {
            if (ports[i] == port) {
                return true;
            }
        }
        return false;
    }
}
