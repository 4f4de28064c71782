package io.tern.turn.policy;

import io.tern.stun.address.TransportAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Decides which peers a client may reach through the relay. Safer than coturn's defaults: loopback,
 * unspecified, link-local, IPv6 unique-local, multicast and the relay's own listeners are denied
 * unless the operator allows them. Private IPv4 ranges stay reachable, since relays commonly sit
 * beside their peers on them; deny them with {@code denied-peer-ip} where they aren't. Explicitly
 * allowed ranges win over every deny, as in coturn.
 *
 * <p>Beside the configured ranges, a user database's (coturn's {@code turn/allowed-peer-ip/*} and
 * {@code turn/denied-peer-ip/*} keys in {@code redis-userdb}) may be swapped in at any time by the
 * adapter that reads it ({@link #replaceDynamic}); each decision reads one snapshot of them.
 */
public final class PeerAddressPolicy {
    /** Denied unless allowed: unspecified, "this network", link-local, ULA, multicast, broadcast. */
    private static final List<IpRange> DEFAULT_DENIED = List.of(
            IpRange.parse("0.0.0.0/8"),
            IpRange.parse("169.254.0.0/16"),
            IpRange.parse("224.0.0.0/4"),
            IpRange.parse("240.0.0.0/4"),
            IpRange.parse("::/128"),
            IpRange.parse("fe80::/10"),
            IpRange.parse("fc00::/7"),
            IpRange.parse("ff00::/8"));

    private static final List<IpRange> LOOPBACK = List.of(IpRange.parse("127.0.0.0/8"), IpRange.parse("::1/128"));

    private final List<IpRange> allowed;
    private final List<IpRange> denied;
    private final List<TransportAddress> listenerAddresses;
    /** Written by the user database's reader, read once per decision by the relay threads. */
    private volatile Ranges dynamic = new Ranges(List.of(), List.of());

    private record Ranges(List<IpRange> allowed, List<IpRange> denied) {}

    private PeerAddressPolicy(List<IpRange> allowed, List<IpRange> denied, List<TransportAddress> listenerAddresses) {
        this.allowed = List.copyOf(allowed);
        this.denied = List.copyOf(denied);
        this.listenerAddresses = List.copyOf(listenerAddresses);
    }

    /**
     * @param allowed           {@code allowed-peer-ip} ranges; they override every deny
     * @param denied            {@code denied-peer-ip} ranges, added to the defaults
     * @param allowLoopback     {@code allow-loopback-peers}: lift the loopback deny (for tests)
     * @param listenerAddresses the relay's own listening transport addresses, wildcards already
     *                          expanded to the host's addresses; never a valid destination
     */
    public static PeerAddressPolicy of(
            List<IpRange> allowed,
            List<IpRange> denied,
            boolean allowLoopback,
            List<TransportAddress> listenerAddresses) {
        List<IpRange> deny = new ArrayList<>(DEFAULT_DENIED);
        if (!allowLoopback) {
            deny.addAll(LOOPBACK);
        }
        deny.addAll(denied);
        List<TransportAddress> listeners = new ArrayList<>();
        for (TransportAddress a : listenerAddresses) {
            listeners.add(a.copy());
        }
        return new PeerAddressPolicy(allowed, deny, listeners);
    }

    /**
     * Puts a user database's ranges in place of the previous ones, for every decision from now on;
     * they add to the configured ranges, with the same precedence (allowed wins).
     */
    public void replaceDynamic(List<IpRange> allowedRanges, List<IpRange> deniedRanges) {
        dynamic = new Ranges(List.copyOf(allowedRanges), List.copyOf(deniedRanges));
    }

    /** Whether a permission may be installed for this peer IP (the port is ignored). */
    public boolean permits(TransportAddress peer) {
        Ranges current = dynamic;
        if (anyContains(allowed, peer) || anyContains(current.allowed(), peer)) {
            return true;
        }
        return !anyContains(denied, peer) && !anyContains(current.denied(), peer);
    }

    private static boolean anyContains(List<IpRange> ranges, TransportAddress peer) {
        for (int i = 0; i < ranges.size(); i++) {
            if (ranges.get(i).contains(peer)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether data may be sent to this exact transport address: a permitted IP, and not one of the
     * relay's own listeners, so that a client can't make the relay talk to itself.
     */
    public boolean permitsDestination(TransportAddress peer) {
        if (!permits(peer)) {
            return false;
        }
        for (TransportAddress listener : listenerAddresses) {
            if (listener.port() == peer.port() && listener.sameIp(peer)) {
                return false;
            }
        }
        return true;
    }
}
