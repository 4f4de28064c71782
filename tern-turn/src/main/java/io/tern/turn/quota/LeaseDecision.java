package io.tern.turn.quota;

/**
 * The fleet's answer to an allocation's lease ({@code Command.ACQUIRE_LEASE}), fed back to the
 * engine as an input ({@code TurnEngine.onLeaseDecided}).
 */
public enum LeaseDecision {
    /** A slot under the cluster-wide {@code user-quota} and {@code total-quota} is held for the allocation. */
    GRANTED,
    /** A cluster-wide quota is spent: the Allocate gets 486 (Allocation Quota Reached). */
    REFUSED,
    /**
     * The fleet's store could not decide (unreachable, timed out, or it answered nonsense): the local
     * quotas alone decide, or, failing closed, the Allocate gets 508 (Insufficient Capacity).
     */
    UNAVAILABLE
}
