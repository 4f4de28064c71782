package io.tern.turn.engine;

import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.quota.AllocationQuota;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link SharedState} behind one lock: port pools and quotas are touched once per allocation, so
 * contention between relay threads is negligible next to the work of an Allocate.
 */
public final class SynchronizedSharedState implements SharedState {
    private final AllocationQuota quota;
    private final RelayPortPool portsV4;
    private final RelayPortPool portsV6;
    private final AtomicBoolean draining;

    /**
     * @param portsV4  the IPv4 relay port range, or null without an IPv4 relay address
     * @param portsV6  the IPv6 relay port range, or null without an IPv6 relay address
     * @param draining set to enter drain mode
     */
    public SynchronizedSharedState(
            AllocationQuota quota, RelayPortPool portsV4, RelayPortPool portsV6, AtomicBoolean draining) {
        this.quota = quota;
        this.portsV4 = portsV4;
        this.portsV6 = portsV6;
        this.draining = draining;
    }

    @Override
    public boolean draining() {
        return draining.get();
    }

    @Override
    public synchronized boolean acquireAllocation(String user) {
        return quota.tryAcquire(user);
    }

    @Override
    public synchronized void releaseAllocation(String user) {
        quota.release(user);
    }

    @Override
    public boolean hasPorts(boolean ipv6) {
        return pool(ipv6) != null;
    }

    @Override
    public int portCount(boolean ipv6) {
        RelayPortPool pool = pool(ipv6);
        return pool == null ? 0 : pool.size();
    }

    @Override
    public synchronized int acquirePort(
            boolean ipv6, boolean evenOnly, boolean reserveNext, int[] skip, int skipCount) {
        RelayPortPool pool = pool(ipv6);
        return pool == null ? -1 : pool.acquire(evenOnly, reserveNext, skip, skipCount);
    }

    @Override
    public synchronized void releasePort(boolean ipv6, int port) {
        RelayPortPool pool = pool(ipv6);
        if (pool != null) {
            pool.release(port);
        }
    }

    @Override
    public synchronized void reservePort(long token, int port, long expiresAtNs) {
        portsV4.reserve(token, port, expiresAtNs);
    }

    @Override
    public synchronized int claimPort(long token, long nowNs) {
        return portsV4 == null ? -1 : portsV4.claim(token, nowNs);
    }

    @Override
    public synchronized void expireReservations(long nowNs) {
        if (portsV4 != null) {
            portsV4.expireReservations(nowNs);
        }
    }

    /** Ports taken now, for tests and diagnostics. */
    public synchronized int portsInUse(boolean ipv6) {
        RelayPortPool pool = pool(ipv6);
        return pool == null ? 0 : pool.inUse();
    }

    /** EVEN-PORT reservations not yet claimed or lapsed. */
    public synchronized int reservations() {
        return portsV4 == null ? 0 : portsV4.reservations();
    }

    /** Allocations counted against the quotas now. */
    public synchronized int allocations() {
        return quota.total();
    }

    private RelayPortPool pool(boolean ipv6) {
        return ipv6 ? portsV6 : portsV4;
    }
}
