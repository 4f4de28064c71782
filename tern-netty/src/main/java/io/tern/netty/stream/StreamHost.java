package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
import java.net.InetSocketAddress;

/**
 * The relay thread that owns a connection: it hands framed messages to its TURN engine. Called
 * only on that thread.
 */
public interface StreamHost {
    /**
     * One complete STUN message or padded ChannelData at {@code buffer[index, index + length)}.
     * The buffer is valid only during the call; retain a slice to keep bytes longer.
     */
    void onStreamMessage(
            int listenerId, long connectionId, TransportAddress client, ByteBuf buffer, int index, int length);

    /**
     * A read of the connection is done: every message in it was handed over. What they made for
     * the allocation's relay socket, which only this connection feeds, may leave now.
     */
    void onStreamReadDone();

    /** The connection closed: its allocation, if any, goes (RFC 8656 §3.1). */
    void onStreamClosed(int listenerId, long connectionId, TransportAddress client);

    /**
     * Hands a connection, deregistered from this thread's loop, to relay thread {@code targetShard}:
     * it is registered there, and {@code replay} (the message that asked for the move, and any
     * bytes after it) is handled there as if just received. The reference to {@code replay} passes.
     */
    void handOver(
            int targetShard,
            Channel channel,
            int listenerId,
            TransportProtocol protocol,
            InetSocketAddress remote,
            ByteBuf replay);

    /** The time of the current event-loop turn, on the engine's clock. */
    long nowNs();

    /** Whether the connection has an allocation; one that has is never closed as idle. */
    boolean hasAllocation(int listenerId, long connectionId, TransportAddress client);
}
