package io.tern.turn.method;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;

/**
 * CreatePermission (RFC 8656 §10.2): installs or refreshes a permission for each XOR-PEER-ADDRESS,
 * all of them or none.
 */
public final class CreatePermissionHandler {
    private final EngineState engine;
    private final TransportAddress[] peers = new TransportAddress[StunMessageDecoder.MAX_PEER_ADDRESSES];
    private final byte[] scratch16 = new byte[16];

    public CreatePermissionHandler(EngineState engine) {
        this.engine = engine;
        for (int i = 0; i < peers.length; i++) {
            peers[i] = new TransportAddress();
        }
    }

    public void handle(RequestContext request) {
        Allocation allocation = request.allocation();
        StunMessageDecoder message = request.message();
        // §10.2: at least one XOR-PEER-ADDRESS (Tern takes at most 16), each well formed.
        int count = message.peerAddressCount();
        if (count == 0 || count > StunMessageDecoder.MAX_PEER_ADDRESSES) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        for (int i = 0; i < count; i++) {
            TransportAddress peer = peers[i];
            if (!AddressAttribute.decodeXorPeer(message, i, peer, scratch16)) {
                request.signedError(ErrorCode.BAD_REQUEST);
                return;
            }
            // Each peer's family must be one the allocation relays (443).
            if (allocation.relayIdFor(peer) < 0) {
                request.signedError(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
                return;
            }
            // The server's policy may forbid a peer (403).
            if (!engine.peerPolicy().permits(peer)) {
                request.signedError(ErrorCode.FORBIDDEN);
                return;
            }
        }
        // Tern bounds the permissions of one allocation (508 past it).
        if (!allocation.permissionsFit(peers, count, engine.config.maxPermissions())) {
            request.signedError(ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        // §10.2: install each permission or refresh its timer (§9.2).
        for (int i = 0; i < count; i++) {
            allocation.installPermission(
                    peers[i], request.nowNs(), engine.config.permissionLifetimeNs(), engine.timers);
        }
        request.startSuccess();
        request.finishSigned();
    }
}
