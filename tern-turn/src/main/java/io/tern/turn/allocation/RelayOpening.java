package io.tern.turn.allocation;

/**
 * An Allocate whose relay sockets the transport is still binding (RFC 8656 §7.2 steps 7-8 done,
 * the answer not yet sent): which families it wants, which ports it tried, and what the success
 * answer will carry. Discarded once the allocation is answered.
 */
public final class RelayOpening {
    /** Ports tried per family before the Allocate fails with 508; ports another process holds are skipped. */
    public static final int MAX_ATTEMPTS = 16;

    public final PendingAnswer answer = new PendingAnswer();
    public final int[] refusedPortsV4 = new int[MAX_ATTEMPTS];
    public final int[] refusedPortsV6 = new int[MAX_ATTEMPTS];
    public int attemptsV4;
    public int attemptsV6;
    /** The IPv4 (or IPv6) relay is wanted and not bound yet. */
    public boolean waitingV4;

    public boolean waitingV6;
    /** IPv6 came from ADDITIONAL-ADDRESS-FAMILY: its failure is reported in ADDRESS-ERROR-CODE, not fatal. */
    public boolean v6Optional;

    public boolean evenPort;
    public boolean reserveNext;
    /** The port came from a RESERVATION-TOKEN: no other port will do. */
    public boolean reservedPort;

    public long lifetimeNs;
    public long reservationToken;
    public int addressErrorCode;

    /** The fleet has not yet decided this allocation's lease ({@code --cluster-redis}). */
    public boolean waitingLease;

    public boolean waiting() {
        return waitingV4 || waitingV6 || waitingLease;
    }
}
