package io.tern.turn.allocation;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.auth.Credential;
import io.tern.turn.engine.TransportProtocol;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One TURN allocation: the client's 5-tuple, its relayed transport addresses (one per family),
 * and its permissions and channels, indexed by primitive keys for the relay path.
 */
public final class Allocation extends Expiring {
    final int listenerId;
    final long connectionId;
    final TransportAddress client;
    final TransportProtocol protocol;
    final Credential credential;
    final long clientKey;

    int relayIdV4 = -1;
    int relayIdV6 = -1;
    TransportAddress relayedV4;
    TransportAddress relayedV6;

    private final Int2ObjectHashMap<Permission> permissionsV4 = new Int2ObjectHashMap<>();
    private final Map<TransportAddress, Permission> permissionsV6 = new HashMap<>();
    private final Int2ObjectHashMap<ChannelBinding> channelsByNumber = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<ChannelBinding> channelsByPeerV4 = new Long2ObjectHashMap<>();
    private final Map<TransportAddress, ChannelBinding> channelsByPeerV6 = new HashMap<>();
    private final TransportAddress probe = new TransportAddress();

    public Allocation(
            int listenerId,
            long connectionId,
            TransportAddress client,
            TransportProtocol protocol,
            Credential credential,
            long clientKey) {
        this.listenerId = listenerId;
        this.connectionId = connectionId;
        this.client = client.copy();
        this.protocol = protocol;
        this.credential = credential;
        this.clientKey = clientKey;
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

    public TransportProtocol protocol() {
        return protocol;
    }

    public Credential credential() {
        return credential;
    }

    public long clientKey() {
        return clientKey;
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

    public Permission permission(TransportAddress peer) {
        if (peer.isIpv4()) {
            return permissionsV4.get(peer.ipv4());
        }
        return permissionsV6.get(probe.set(peer).port(0));
    }

    public int permissionCount() {
        return permissionsV4.size() + permissionsV6.size();
    }

    /** Creates a permission for the peer's IP; the caller schedules its expiry. */
    public Permission addPermission(TransportAddress peer) {
        Permission permission = new Permission(this, peer);
        if (peer.isIpv4()) {
            permissionsV4.put(peer.ipv4(), permission);
        } else {
            permissionsV6.put(permission.peerIp, permission);
        }
        return permission;
    }

    public void removePermission(Permission permission) {
        if (permission.peerIp.isIpv4()) {
            permissionsV4.remove(permission.peerIp.ipv4());
        } else {
            permissionsV6.remove(permission.peerIp);
        }
    }

    public ChannelBinding channel(int number) {
        return channelsByNumber.get(number);
    }

    public ChannelBinding channelForPeer(TransportAddress peer) {
        if (peer.isIpv4()) {
            return channelsByPeerV4.get(peer.packedIpv4());
        }
        return channelsByPeerV6.get(peer);
    }

    public ChannelBinding addChannel(int number, TransportAddress peer, int relayId) {
        ChannelBinding binding = new ChannelBinding(this, number, peer, relayId);
        channelsByNumber.put(number, binding);
        if (peer.isIpv4()) {
            channelsByPeerV4.put(peer.packedIpv4(), binding);
        } else {
            channelsByPeerV6.put(binding.peer, binding);
        }
        return binding;
    }

    public void removeChannel(ChannelBinding binding) {
        channelsByNumber.remove(binding.number);
        if (binding.peer.isIpv4()) {
            channelsByPeerV4.remove(binding.peer.packedIpv4());
        } else {
            channelsByPeerV6.remove(binding.peer);
        }
    }

    /** Every permission and channel, for cancelling their timers when the allocation goes. */
    public List<Expiring> children() {
        List<Expiring> all = new ArrayList<>(permissionsV4.values());
        all.addAll(permissionsV6.values());
        all.addAll(channelsByNumber.values());
        return all;
    }
}
