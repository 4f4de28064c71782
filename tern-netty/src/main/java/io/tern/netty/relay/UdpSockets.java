package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.tern.stun.address.TransportAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.agrona.DirectBuffer;

/**
 * The UDP sockets of one relay thread: its client-facing listeners and its allocations' relay
 * sockets, by listener and relay id. What they receive goes to the shard's {@link UdpInput}; sends
 * are queued and leave in batches at the end of the loop's turn. Used only on the shard's loop.
 * Implemented over Netty's datagram channels ({@link NettyUdpSockets}) and over recvmmsg/sendmmsg
 * called through the FFM API ({@code FfmUdpSockets}, JDK 22+), chosen by {@link UdpIo}.
 */
interface UdpSockets {
    /** Binds a client-facing listener (SO_REUSEPORT where the transport has it); returns where it is bound. */
    InetSocketAddress bindListener(int listenerId, InetSocketAddress address) throws IOException;

    /** Binds relay socket {@code relayId}; false when the address is taken or the socket fails. */
    boolean openRelay(int relayId, TransportAddress address);

    /** Closes relay socket {@code relayId}; false if it is not one of these sockets (a TCP relay). */
    boolean closeRelay(int relayId);

    /**
     * Queues {@code length} bytes of {@code bytes} from {@code offset} to a client through listener
     * {@code listenerId}. {@code inPlace} is null, or the buffer of the input being handled when
     * the bytes lie in it at {@code offset} (relayed data), which may then go out without a copy.
     */
    void sendToClient(
            int listenerId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace);

    /** Queues bytes to a peer through relay socket {@code relayId}, as {@link #sendToClient}. */
    void sendToPeer(
            int relayId, TransportAddress recipient, DirectBuffer bytes, int offset, int length, ByteBuf inPlace);

    /**
     * Sends what is queued now instead of at the end of the turn: a TCP client's relayed
     * datagrams, once its read is done (each goes to that client's own relay socket, which
     * nothing else writes in the turn, so this costs no extra system call).
     */
    void flushQueued();

    /** Closes every socket. */
    void closeAll();
}
