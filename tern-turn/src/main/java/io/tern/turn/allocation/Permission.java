package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.timer.Expiring;

/** A permission for one peer IP (RFC 8656 §9); the port is ignored. */
public final class Permission extends Expiring {
    final Allocation owner;
    final TransportAddress peerIp;

    Permission(Allocation owner, TransportAddress peerIp) {
        this.owner = owner;
        this.peerIp = peerIp.copy().port(0);
    }

    public Allocation owner() {
        return owner;
    }

    public TransportAddress peerIp() {
        return peerIp;
    }
}
