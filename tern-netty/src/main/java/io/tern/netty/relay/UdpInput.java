package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import org.agrona.MutableDirectBuffer;

/**
 * What a relay thread's {@link UdpSockets} deliver: each datagram as {@code length} bytes at
 * {@code offset} of {@code data}, a view valid only during the call, with {@link
 * io.tern.turn.engine.TurnEngine#PEER_PACKET_HEADROOM} writable bytes before a peer datagram.
 * {@code inbound} is the Netty buffer behind {@code data}, or null when the sockets copy what they
 * send anyway.
 */
interface UdpInput {
    void onClientDatagram(
            int listenerId, TransportAddress sender, ByteBuf inbound, MutableDirectBuffer data, int offset, int length);

    void onPeerDatagram(
            int relayId, TransportAddress sender, ByteBuf inbound, MutableDirectBuffer data, int offset, int length);

    /**
     * One read of relay socket {@code relayId} is done: every datagram it returned was delivered.
     * A relay socket serves one allocation, so what those datagrams made for a TCP client
     * is all it gets from this socket in this turn, and may leave now.
     */
    void onRelayReadDone(int relayId);

    /** A datagram not delivered (oversized, or a full socket on send), counted as the engine's drops are. */
    void drop(DropReason reason);
}
