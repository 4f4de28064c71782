package io.tern.turn.engine;

/**
 * The only mutable state the engines of one server share (one engine per relay thread): the relay
 * port ranges, the allocation quotas and the drain flag. Everything else an engine touches is its
 * own. Implementations must be thread-safe; engines call them once per Allocate or per allocation's
 * end, never per relayed packet.
 */
public interface SharedState {
    /** Drain mode: new allocations are refused (508), existing ones run out. */
    boolean draining();

    /** Counts an allocation for {@code user}; false when {@code user-quota}, {@code total-quota} or the hard bound is reached (486). */
    boolean acquireAllocation(String user);

    void releaseAllocation(String user);

    /** Whether relay ports of this family exist (a relay address of it is configured). */
    boolean hasPorts(boolean ipv6);

    /** Ports in the range of a family, 0 without one. */
    int portCount(boolean ipv6);

    /**
     * Takes a free relay port, or -1 when none is left: even with {@code evenOnly}, and with the
     * odd port above it taken too with {@code reserveNext}. The first {@code skipCount} ports of
     * {@code skip} are not handed out (they were refused by the transport a moment ago).
     */
    int acquirePort(boolean ipv6, boolean evenOnly, boolean reserveNext, int[] skip, int skipCount);

    void releasePort(boolean ipv6, int port);

    /** Holds an IPv4 port, already taken, for whoever presents {@code token} until {@code expiresAtNs}. */
    void reservePort(long token, int port, long expiresAtNs);

    /** Hands over a reserved IPv4 port, or -1 when the token is unknown or has lapsed. */
    int claimPort(long token, long nowNs);

    /** Frees the ports of reservations nobody claimed in time. */
    void expireReservations(long nowNs);
}
