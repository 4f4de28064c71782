package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.tern.stun.address.TransportAddress;

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

    /** The connection closed: its allocation, if any, goes (RFC 8656 §3.1). */
    void onStreamClosed(int listenerId, long connectionId, TransportAddress client);

    /** The time of the current event-loop turn, on the engine's clock. */
    long nowNs();

    /** Whether the connection has an allocation; one that has is never closed as idle. */
    boolean hasAllocation(int listenerId, long connectionId, TransportAddress client);
}
