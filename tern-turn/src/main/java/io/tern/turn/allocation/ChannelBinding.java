package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.timer.Expiring;

/**
 * A channel number bound to a peer transport address (RFC 8656 §12). After it expires it lingers
 * inactive for a cooldown, during which neither its number nor its peer may be bound to anything
 * else (§12.2), then it is removed.
 */
public final class ChannelBinding extends Expiring {
    final Allocation owner;
    final int number;
    final TransportAddress peer;
    final int relayId;
    boolean active = true;

    ChannelBinding(Allocation owner, int number, TransportAddress peer, int relayId) {
        this.owner = owner;
        this.number = number;
        this.peer = peer.copy();
        this.relayId = relayId;
    }

    public Allocation owner() {
        return owner;
    }

    public int number() {
        return number;
    }

    public TransportAddress peer() {
        return peer;
    }

    /** The relay socket (IPv4 or IPv6) that reaches this peer. */
    public int relayId() {
        return relayId;
    }

    public boolean active() {
        return active;
    }
}
