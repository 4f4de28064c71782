package io.tern.netty.relay;

import io.tern.turn.quota.LeaseDecision;
import java.util.function.Consumer;

/**
 * Where a relay thread takes the engine's {@code ACQUIRE_LEASE} and {@code RELEASE_LEASE}
 * commands: the fleet's lease store ({@code --cluster-redis}). Called on a relay thread, once per
 * Allocate and once per allocation's end, never per packet; implementations must not block.
 */
public interface FleetLeases {
    /** No fleet: every lease is granted at once (the engine asks only when fleet quotas are on). */
    FleetLeases NONE = new FleetLeases() {
        @Override
        public void acquire(long leaseId, String user, Consumer<LeaseDecision> answer) {
            answer.accept(LeaseDecision.GRANTED);
        }

        @Override
        public void release(long leaseId, String user) {}
    };

    /**
     * Asks for lease {@code leaseId} (unique on this node) of {@code user}; {@code answer} is called
     * exactly once, on any thread, possibly before this returns.
     */
    void acquire(long leaseId, String user, Consumer<LeaseDecision> answer);

    /** Gives lease {@code leaseId} back, whether it was granted, refused or is still undecided. */
    void release(long leaseId, String user);
}
