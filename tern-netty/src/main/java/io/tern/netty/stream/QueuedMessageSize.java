package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.MessageSizeEstimator;

/**
 * What a message waiting in a connection's write queue costs: its bytes, plus what holding it
 * takes beyond them (the pooled allocator rounds a small buffer up to its size class, about 800
 * bytes for a relayed 1200-byte datagram, and the queue keeps an entry per message). The write
 * water marks compare against this, so they bound memory rather than payload: a client that stops
 * reading holds about the high water mark, whatever the size of the messages relayed to it.
 */
public final class QueuedMessageSize implements MessageSizeEstimator {
    /** The cost of queueing one message, beyond its bytes. */
    public static final int OVERHEAD_BYTES = 1024;

    public static final QueuedMessageSize INSTANCE = new QueuedMessageSize();

    private final Handle handle = msg -> {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes() + OVERHEAD_BYTES;
        }
        if (msg instanceof ByteBufHolder holder) {
            return holder.content().readableBytes() + OVERHEAD_BYTES;
        }
        return OVERHEAD_BYTES;
    };

    private QueuedMessageSize() {}

    @Override
    public Handle newHandle() {
        return handle;
    }
}
