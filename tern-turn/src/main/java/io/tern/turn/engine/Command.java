package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import org.agrona.DirectBuffer;

/**
 * One output of the engine, read by the transport from {@link TurnEngine#poll()}: a view over a
 * slot of the engine's command queue, valid until the next {@code poll}. Its bytes stay valid until
 * the queue has been drained (a {@code poll} that returned null).
 *
 * <p>The transport alone owns sockets, by relay id; the engine names them in these commands and
 * hears back through {@link TurnEngine#onRelayOpened} and {@link TurnEngine#onPeerConnected}.
 */
public final class Command {
    /** Bytes for a client: {@link #client()}, {@link #buffer()}, {@link #offset()}, {@link #length()}, {@link #inPlace()}. */
    public static final int SEND_TO_CLIENT = 1;
    /** Relayed data for {@link #address()} from relay socket {@link #relayId()}; may be empty (RFC 8656 §12.5). */
    public static final int SEND_TO_PEER = 2;
    /**
     * Bind relay socket {@link #relayId()} to {@link #address()}: UDP, or for
     * {@link #relayProtocol()} TCP a listening socket peers connect to (RFC 6062). Answer with
     * {@link TurnEngine#onRelayOpened}.
     */
    public static final int OPEN_RELAY = 3;
    /** Close relay socket {@link #relayId()}: a UDP socket, a TCP listener, or a peer connection (and what is bound to it). */
    public static final int CLOSE_RELAY = 4;
    /**
     * Open a TCP connection to {@link #address()} from the address of relay {@link #parentRelayId()},
     * as relay socket {@link #relayId()} (RFC 6062 §5.2). Answer with {@link TurnEngine#onPeerConnected}.
     */
    public static final int CONNECT_PEER = 5;
    /**
     * Join client data connection {@link #client()} to peer connection {@link #relayId()}: from now
     * on raw bytes flow both ways and neither connection is framed (RFC 6062 §5.4). Sent after
     * the ConnectionBind answer, which must reach the client before any relayed byte.
     */
    public static final int BIND_CONNECTION = 6;

    /**
     * Move client connection {@link #client()} to relay thread {@link #targetShard()} and hand that
     * thread's engine the message at {@link #buffer()} again (in place): a ConnectionBind whose
     * CONNECTION-ID another thread issued (RFC 6062 §5.4).
     */
    public static final int MIGRATE_CONNECTION = 7;

    /**
     * Ask the fleet for lease {@link #leaseId()} of user {@link #user()} (cluster-wide
     * {@code user-quota} and {@code total-quota}), off the packet path. Answer with
     * {@link TurnEngine#onLeaseDecided}; the Allocate waits for it.
     */
    public static final int ACQUIRE_LEASE = 8;
    /** Give back lease {@link #leaseId()} of user {@link #user()}: its allocation ended (or never opened). */
    public static final int RELEASE_LEASE = 9;

    private final CommandQueue queue;
    private int slot;

    Command(CommandQueue queue) {
        this.queue = queue;
    }

    Command at(int slot) {
        this.slot = slot;
        return this;
    }

    public int kind() {
        return queue.kinds[slot];
    }

    /** The client of {@link #SEND_TO_CLIENT} and {@link #BIND_CONNECTION}. */
    public ClientEndpoint client() {
        return queue.clients[slot];
    }

    public int relayId() {
        return queue.relayIds[slot];
    }

    public int parentRelayId() {
        return queue.aux[slot];
    }

    /** The peer of {@link #SEND_TO_PEER} and {@link #CONNECT_PEER}; the bind address of {@link #OPEN_RELAY}. */
    public TransportAddress address() {
        return queue.addresses[slot];
    }

    /** The relay thread of {@link #MIGRATE_CONNECTION}. */
    public int targetShard() {
        return queue.aux[slot];
    }

    /** {@code RequestedTransport.UDP} or {@code RequestedTransport.TCP}, for {@link #OPEN_RELAY}. */
    public int relayProtocol() {
        return queue.aux[slot];
    }

    /** The lease of {@link #ACQUIRE_LEASE} and {@link #RELEASE_LEASE}: unique on this node, never 0. */
    public long leaseId() {
        return queue.leaseIds[slot];
    }

    /** The user of {@link #ACQUIRE_LEASE} and {@link #RELEASE_LEASE} (the allocation's credential). */
    public String user() {
        return queue.users[slot];
    }

    public DirectBuffer buffer() {
        return queue.buffers[slot];
    }

    public int offset() {
        return queue.offsets[slot];
    }

    public int length() {
        return queue.lengths[slot];
    }

    /**
     * The bytes lie in the buffer of the input that produced this command (a relayed datagram or
     * ChannelData), at {@link #offset()}: the transport may send them without a copy, for instance
     * as a retained slice of what it received. Otherwise they are in the engine's own memory and
     * must be copied.
     */
    public boolean inPlace() {
        return queue.inPlace[slot];
    }

    @Override
    public String toString() {
        return switch (kind()) {
            case SEND_TO_CLIENT -> "SEND_TO_CLIENT " + client() + " " + length() + "B" + (inPlace() ? " in place" : "");
            case SEND_TO_PEER ->
                "SEND_TO_PEER relay " + relayId() + " " + address() + " " + length() + "B"
                        + (inPlace() ? " in place" : "");
            case OPEN_RELAY -> "OPEN_RELAY " + relayId() + " " + address() + " proto " + relayProtocol();
            case CLOSE_RELAY -> "CLOSE_RELAY " + relayId();
            case CONNECT_PEER -> "CONNECT_PEER " + relayId() + " from " + parentRelayId() + " to " + address();
            case BIND_CONNECTION -> "BIND_CONNECTION " + client() + " to " + relayId();
            case MIGRATE_CONNECTION -> "MIGRATE_CONNECTION " + client() + " to shard " + targetShard();
            case ACQUIRE_LEASE -> "ACQUIRE_LEASE " + Long.toHexString(leaseId()) + " " + user();
            case RELEASE_LEASE -> "RELEASE_LEASE " + Long.toHexString(leaseId()) + " " + user();
            default -> "?" + kind();
        };
    }
}
