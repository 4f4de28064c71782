package io.tern.turn.method;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.ChannelNumber;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.stun.channel.ChannelDataFlyweight;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;

/** ChannelBind (RFC 8656 §11.2): binds a channel number to a peer, or refreshes the binding. */
public final class ChannelBindHandler {
    private final EngineState engine;
    private final TransportAddress peer = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    public ChannelBindHandler(EngineState engine) {
        this.engine = engine;
    }

    public void handle(RequestContext request) {
        Allocation allocation = request.allocation();
        // A TCP allocation (RFC 6062) has no channels; 403 as coturn answers.
        if (allocation.relayProtocol() != RequestedTransport.UDP) {
            request.signedError(ErrorCode.FORBIDDEN);
            return;
        }
        // §11.2: CHANNEL-NUMBER in range and a well-formed XOR-PEER-ADDRESS, else 400.
        int number = ChannelNumber.read(request.message());
        if (number < ChannelDataFlyweight.MIN_CHANNEL
                || number > engine.config.maxChannelNumber()
                || !AddressAttribute.decodeXorPeer(request.message(), 0, peer, scratch16)) {
            request.signedError(ErrorCode.BAD_REQUEST);
            return;
        }
        // The peer's family must be one the allocation relays (443).
        int relayId = allocation.relayIdFor(peer);
        if (relayId < 0) {
            request.signedError(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
            return;
        }
        // The server's policy may forbid a peer (403).
        if (!engine.peerPolicy().permitsDestination(peer)) {
            request.signedError(ErrorCode.FORBIDDEN);
            return;
        }
        // §11.2 and §12.2: no rebinding of a number or peer to something else (400), and room for
        // the peer's permission (508).
        int refusal = allocation.channelBindRefusal(number, peer, engine.config.maxPermissions());
        if (refusal != 0) {
            request.signedError(refusal);
            return;
        }
        // §11.2: bind or refresh the channel, and install or refresh the peer's permission.
        allocation.bindChannel(
                number,
                peer,
                relayId,
                request.nowNs(),
                engine.config.channelLifetimeNs(),
                engine.config.permissionLifetimeNs(),
                engine.timers);
        request.startSuccess();
        request.finishSigned();
    }
}
