package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.allocation.AllocationTable;
import io.tern.turn.allocation.PeerConnection;
import io.tern.turn.allocation.PeerConnectionTable;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.timer.TimerWheel;
import java.util.random.RandomGenerator;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * What an engine's method handlers work on: the tables it alone owns (allocations, peer
 * connections), its one timer wheel, its command queue and the shared state, plus the operations
 * several handlers need (ending an allocation, naming a new socket). Owned by one
 * {@link TurnEngine}, confined to its thread.
 */
public final class EngineState {
    public final TurnEngineConfig config;
    public final TurnShared shared;
    public final TurnCounters counters;
    public final CommandQueue commands;
    public final Responder responder;
    public final TimerWheel timers;
    public final AllocationTable allocations = new AllocationTable();
    public final PeerConnectionTable peerConnections = new PeerConnectionTable();
    /** Allocations whose fleet-wide lease is asked for and not yet decided, by lease id. */
    public final Long2ObjectHashMap<Allocation> undecidedLeases = new Long2ObjectHashMap<>();

    public final RandomGenerator random;
    /** This engine's relay thread, and how many there are: CONNECTION-IDs carry the thread in their top byte. */
    public final int shard;

    public final int shards;
    private int nextRelayId = 1;
    private long nextLeaseSequence = 1;

    EngineState(
            TurnEngineConfig config,
            TurnShared shared,
            TurnCounters counters,
            CommandQueue commands,
            Responder responder,
            TimerWheel timers,
            RandomGenerator random,
            int shard,
            int shards) {
        this.config = config;
        this.shared = shared;
        this.counters = counters;
        this.commands = commands;
        this.responder = responder;
        this.timers = timers;
        this.random = random;
        this.shard = shard;
        this.shards = shards;
    }

    public SharedState state() {
        return shared.state();
    }

    public PeerAddressPolicy peerPolicy() {
        return shared.peerPolicy();
    }

    /** A relay id no live socket of this engine has. */
    public int newRelayId() {
        while (true) {
            int id = nextRelayId;
            nextRelayId = id == Integer.MAX_VALUE ? 1 : id + 1;
            if (allocations.byRelayId(id) == null && peerConnections.byRelayId(id) == null) {
                return id;
            }
        }
    }

    /**
     * A lease id unique on this node for as long as it runs: the shard in the top byte, then a
     * sequence that would take centuries to wrap. The fleet tells nodes' leases apart by node.
     */
    public long newLeaseId() {
        return ((long) shard << 56) | nextLeaseSequence++;
    }

    /**
     * A fresh, unused CONNECTION-ID (RFC 6062 §6.2.1): this engine's shard in the top byte, so
     * that a ConnectionBind arriving on another relay thread can be sent to this one (as coturn
     * does), and 24 random bits, never 0.
     */
    public long newConnectionId() {
        while (true) {
            long id = ((long) shard << 24) | (random.nextInt() & 0xFF_FFFFL);
            if ((id & 0xFF_FFFFL) != 0 && peerConnections.byConnectionId(id) == null) {
                return id;
            }
        }
    }

    /** The shard whose engine issued a CONNECTION-ID. */
    public static int shardOf(long connectionId) {
        return (int) (connectionId >>> 24);
    }

    /**
     * Ends an allocation (expiry, Refresh with LIFETIME 0, its connection closing, shutdown): its
     * timers stop, its relay sockets and peer connections are closed, its ports and quota go back.
     */
    public void deleteAllocation(Allocation allocation) {
        allocation.cancelTimers(timers);
        allocations.remove(allocation);
        for (PeerConnection connection : PeerConnectionTable.of(allocation)) {
            closePeerConnection(connection);
        }
        releaseRelay(allocation.relayIdV4(), allocation.relayedV4(), false);
        releaseRelay(allocation.relayIdV6(), allocation.relayedV6(), true);
        allocation.relayV4(-1, null);
        allocation.relayV6(-1, null);
        shared.state().releaseAllocation(allocation.credential().user());
        if (allocation.leaseId() != 0) {
            undecidedLeases.remove(allocation.leaseId());
            commands.releaseLease(allocation.leaseId(), allocation.credential().user());
            allocation.leaseId(0);
        }
        if (!allocation.isOpening()) {
            counters.allocationClosed(allocation.protocol());
        }
        allocation.opening(null);
    }

    private void releaseRelay(int relayId, TransportAddress bound, boolean ipv6) {
        if (relayId >= 0) {
            commands.closeRelay(relayId);
            shared.state().releasePort(ipv6, bound.port());
        }
    }

    /** Frees, at {@code deadlineNs}, the EVEN-PORT reservations nobody claimed by then. */
    public void scheduleReservationExpiry(long deadlineNs) {
        timers.schedule(new Reservation(), deadlineNs);
    }

    /** Forgets a peer connection and asks the transport to close it (and any data connection bound to it). */
    public void closePeerConnection(PeerConnection connection) {
        timers.cancel(connection);
        peerConnections.remove(connection);
        commands.closeRelay(connection.relayId());
    }
}
