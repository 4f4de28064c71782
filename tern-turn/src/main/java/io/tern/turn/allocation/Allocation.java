package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.ErrorCode;
import io.tern.turn.auth.Credential;
import io.tern.turn.engine.ClientEndpoint;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.timer.Expiring;
import io.tern.turn.timer.TimerWheel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One TURN allocation: the client's 5-tuple, its relayed transport addresses (one per family), and
 * its permissions and channels, indexed by primitive keys for the relay path. It keeps its own
 * rules: lifetimes (RFC 8656 §7.2, §8), permission capacity (§9), channel rebinding and cooldown
 * (§12.2), and, for TCP allocations, its peer connections (RFC 6062).
 */
public final class Allocation extends Expiring {
    /** RFC 8656 §12.2: a channel number and peer stay unavailable to other bindings this long after expiry. */
    public static final long CHANNEL_COOLDOWN_NS = TimeUnit.MINUTES.toNanos(5);

    final ClientEndpoint endpoint;
    final int listenerId;
    final long connectionId;
    final TransportAddress client;
    final TransportProtocol protocol;
    final Credential credential;
    final long clientKey;
    final int relayProtocol;

    int relayIdV4 = -1;
    int relayIdV6 = -1;
    TransportAddress relayedV4;
    TransportAddress relayedV6;
    /** Non-null while the relay sockets are being bound; the allocation then answers nothing else. */
    RelayOpening opening;
    /** The fleet-wide lease this allocation holds or asked for, 0 for none ({@code --cluster-redis}). */
    long leaseId;

    final ArrayList<PeerConnection> peerConnections = new ArrayList<>(0);
    private final Int2ObjectHashMap<Permission> permissionsV4 = new Int2ObjectHashMap<>();
    private final Map<TransportAddress, Permission> permissionsV6 = new HashMap<>();
    private final Int2ObjectHashMap<ChannelBinding> channelsByNumber = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<ChannelBinding> channelsByPeerV4 = new Long2ObjectHashMap<>();
    private final Map<TransportAddress, ChannelBinding> channelsByPeerV6 = new HashMap<>();
    private final TransportAddress probe = new TransportAddress();

    /**
     * @param relayProtocol {@code RequestedTransport.UDP} or {@code RequestedTransport.TCP}: how
     *                      peers are reached
     */
    public Allocation(
            ClientEndpoint endpoint,
            TransportProtocol protocol,
            Credential credential,
            long clientKey,
            int relayProtocol) {
        this.endpoint = new ClientEndpoint().set(endpoint);
        this.listenerId = endpoint.listenerId();
        this.connectionId = endpoint.connectionId();
        this.client = this.endpoint.address();
        this.protocol = protocol;
        this.credential = credential;
        this.clientKey = clientKey;
        this.relayProtocol = relayProtocol;
    }

    /** Where the client is reached: its answers and relayed data go there. */
    public ClientEndpoint endpoint() {
        return endpoint;
    }

    public int listenerId() {
        return listenerId;
    }

    public long connectionId() {
        return connectionId;
    }

    public TransportAddress client() {
        return client;
    }

    /** The client-facing transport. */
    public TransportProtocol protocol() {
        return protocol;
    }

    public Credential credential() {
        return credential;
    }

    public long clientKey() {
        return clientKey;
    }

    /** How peers are reached: {@code RequestedTransport.UDP} or {@code RequestedTransport.TCP}. */
    public int relayProtocol() {
        return relayProtocol;
    }

    public RelayOpening opening() {
        return opening;
    }

    public void opening(RelayOpening opening) {
        this.opening = opening;
    }

    public long leaseId() {
        return leaseId;
    }

    public void leaseId(long id) {
        this.leaseId = id;
    }

    public boolean isOpening() {
        return opening != null;
    }

    public int relayIdV4() {
        return relayIdV4;
    }

    public int relayIdV6() {
        return relayIdV6;
    }

    public void relayV4(int relayId, TransportAddress bound) {
        this.relayIdV4 = relayId;
        this.relayedV4 = bound == null ? null : bound.copy();
    }

    public void relayV6(int relayId, TransportAddress bound) {
        this.relayIdV6 = relayId;
        this.relayedV6 = bound == null ? null : bound.copy();
    }

    public TransportAddress relayedV4() {
        return relayedV4;
    }

    public TransportAddress relayedV6() {
        return relayedV6;
    }

    /** The relay socket for a peer of this family, or -1 if the allocation has none (443). */
    public int relayIdFor(TransportAddress peer) {
        return peer.isIpv4() ? relayIdV4 : relayIdV6;
    }

    // ---------------------------------------------------------------------------------------------
    // Lifetime (RFC 8656 §7.2, §8)

    /**
     * The lifetime an Allocate or Refresh gets: the default when it asks for none, else what it
     * asks for capped at the maximum, and never below the default.
     *
     * @param requestedSeconds the LIFETIME value, or a negative number when absent
     */
    public static long lifetimeNs(long requestedSeconds, long defaultNs, long maxNs) {
        if (requestedSeconds < 0) {
            return defaultNs;
        }
        return Math.max(defaultNs, Math.min(TimeUnit.SECONDS.toNanos(requestedSeconds), maxNs));
    }

    /** (Re)starts the allocation's lifetime. */
    public void refresh(long nowNs, long lifetimeNs, TimerWheel timers) {
        timers.schedule(this, nowNs + lifetimeNs);
    }

    /** Stops every timer of the allocation and of its permissions and channels. */
    public void cancelTimers(TimerWheel timers) {
        timers.cancel(this);
        for (Permission p : permissionsV4.values()) {
            timers.cancel(p);
        }
        for (Permission p : permissionsV6.values()) {
            timers.cancel(p);
        }
        for (ChannelBinding c : channelsByNumber.values()) {
            timers.cancel(c);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Permissions (RFC 8656 §9)

    public Permission permission(TransportAddress peer) {
        if (peer.isIpv4()) {
            return permissionsV4.get(peer.ipv4());
        }
        return permissionsV6.get(probe.set(peer).port(0));
    }

    public int permissionCount() {
        return permissionsV4.size() + permissionsV6.size();
    }

    /** Whether permissions for these peers fit within {@code maxPermissions}, counting only new IPs once. */
    public boolean permissionsFit(TransportAddress[] peers, int count, int maxPermissions) {
        int added = 0;
        for (int i = 0; i < count; i++) {
            if (permission(peers[i]) == null && !seenBefore(peers, i)) {
                added++;
            }
        }
        return permissionCount() + added <= maxPermissions;
    }

    private static boolean seenBefore(TransportAddress[] peers, int index) {
        for (int i = 0; i < index; i++) {
            if (peers[i].sameIp(peers[index])) {
                return true;
            }
        }
        return false;
    }

    /** Installs or refreshes the permission for the peer's IP (§9.2: a refresh only moves its expiry). */
    public Permission installPermission(TransportAddress peer, long nowNs, long lifetimeNs, TimerWheel timers) {
        Permission permission = permission(peer);
        if (permission == null) {
            permission = new Permission(this, peer);
            if (peer.isIpv4()) {
                permissionsV4.put(peer.ipv4(), permission);
            } else {
                permissionsV6.put(permission.peerIp, permission);
            }
        }
        timers.schedule(permission, nowNs + lifetimeNs);
        return permission;
    }

    public void removePermission(Permission permission) {
        if (permission.peerIp.isIpv4()) {
            permissionsV4.remove(permission.peerIp.ipv4());
        } else {
            permissionsV6.remove(permission.peerIp);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Channels (RFC 8656 §11, §12)

    public ChannelBinding channel(int number) {
        return channelsByNumber.get(number);
    }

    public ChannelBinding channelForPeer(TransportAddress peer) {
        if (peer.isIpv4()) {
            return channelsByPeerV4.get(peer.packedIpv4());
        }
        return channelsByPeerV6.get(peer);
    }

    /**
     * Whether {@code number} may be bound to {@code peer} (§11.2, §12.2): 0 when it may, else the
     * error code. A number or peer already bound, or cooling down, to something else is 400; a
     * new peer IP when the permissions are full is 508.
     */
    public int channelBindRefusal(int number, TransportAddress peer, int maxPermissions) {
        ChannelBinding byNumber = channel(number);
        ChannelBinding byPeer = channelForPeer(peer);
        if (byNumber != null && !byNumber.peer.equals(peer) || byPeer != null && byPeer.number != number) {
            return ErrorCode.BAD_REQUEST;
        }
        if (permission(peer) == null && permissionCount() >= maxPermissions) {
            return ErrorCode.INSUFFICIENT_CAPACITY;
        }
        return 0;
    }

    /**
     * Binds or refreshes a channel (§11.2) and the permission for its peer; call only when
     * {@link #channelBindRefusal} is 0.
     */
    public ChannelBinding bindChannel(
            int number,
            TransportAddress peer,
            int relayId,
            long nowNs,
            long channelLifetimeNs,
            long permissionLifetimeNs,
            TimerWheel timers) {
        ChannelBinding binding = channel(number);
        if (binding == null) {
            binding = new ChannelBinding(this, number, peer, relayId);
            channelsByNumber.put(number, binding);
            if (peer.isIpv4()) {
                channelsByPeerV4.put(peer.packedIpv4(), binding);
            } else {
                channelsByPeerV6.put(binding.peer, binding);
            }
        }
        binding.active = true;
        timers.schedule(binding, nowNs + channelLifetimeNs);
        installPermission(peer, nowNs, permissionLifetimeNs, timers);
        return binding;
    }

    /** A channel's timer fired: an active binding starts its cooldown, a cooled-down one goes. */
    public void channelTimerExpired(ChannelBinding binding, TimerWheel timers) {
        if (binding.active) {
            binding.active = false;
            timers.schedule(binding, binding.deadlineNs() + CHANNEL_COOLDOWN_NS);
            return;
        }
        channelsByNumber.remove(binding.number);
        if (binding.peer.isIpv4()) {
            channelsByPeerV4.remove(binding.peer.packedIpv4());
        } else {
            channelsByPeerV6.remove(binding.peer);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Peer connections (RFC 6062)

    public int peerConnectionCount() {
        return peerConnections.size();
    }

    /** The connection to this exact peer address, if any (a second Connect to it is 446). */
    public PeerConnection peerConnection(TransportAddress peer) {
        for (int i = 0; i < peerConnections.size(); i++) {
            PeerConnection connection = peerConnections.get(i);
            if (connection.peer.equals(peer)) {
                return connection;
            }
        }
        return null;
    }
}
