package io.tern.turn.method;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.RequestedTransport;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.EngineState;
import io.tern.turn.engine.RequestContext;
import io.tern.turn.engine.TurnCounters;

/**
 * Send indications (RFC 8656 §11.3): the DATA is relayed to the peer in place, straight from the
 * client's message. An indication gets no answer, so every refusal is a counted, silent drop.
 */
public final class SendHandler {
    private final EngineState engine;
    private final TransportAddress peer = new TransportAddress();
    private final byte[] scratch16 = new byte[16];

    public SendHandler(EngineState engine) {
        this.engine = engine;
    }

    public void handle(RequestContext request) {
        Allocation allocation = request.allocation();
        if (allocation == null || allocation.isOpening()) {
            engine.counters.drop(DropReason.NO_ALLOCATION);
            return;
        }
        engine.counters.request(request.method());
        StunMessageDecoder message = request.message();
        // §11.3: XOR-PEER-ADDRESS and DATA must be there and well formed; an indication with an
        // unknown comprehension-required attribute is discarded (RFC 8489 §6.3.2).
        int dataOffset = message.valueOffset(AttributeType.DATA);
        if (dataOffset < 0
                || message.unknownRequiredCount() > 0
                || !AddressAttribute.decodeXorPeer(message, 0, peer, scratch16)) {
            engine.counters.drop(DropReason.MALFORMED);
            return;
        }
        if (allocation.relayProtocol() != RequestedTransport.UDP) {
            engine.counters.drop(DropReason.UNEXPECTED_MESSAGE);
            return;
        }
        // §11.3: no permission for the peer, no relaying.
        int relayId = allocation.relayIdFor(peer);
        if (relayId < 0 || allocation.permission(peer) == null) {
            engine.counters.drop(DropReason.NO_PERMISSION);
            return;
        }
        if (!engine.peerPolicy().permitsDestination(peer)) {
            engine.counters.drop(DropReason.PEER_DENIED);
            return;
        }
        int dataLength = message.valueLength(AttributeType.DATA);
        engine.commands.sendToPeer(relayId, peer, message.buffer(), dataOffset, dataLength, true);
        engine.counters.relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, allocation.protocol(), dataLength);
    }
}
