package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tern.netty.EventLoopFlush;
import io.tern.stun.address.TransportAddress;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One TCP or TLS client connection: cuts the bytes it receives into messages with
 * {@link StreamFramer} and hands each to the {@link StreamHost}. Complete messages are handed over
 * in place, without a copy; only a message split across reads is gathered, in a buffer that grows
 * to that message's length and no further.
 */
final class StreamConnection extends ChannelInboundHandlerAdapter {
    private final StreamConnections owner;
    private final StreamHost host;
    private final Channel channel;
    private final int listenerId;
    private final long connectionId;
    private final TransportAddress client;
    private final UnsafeBuffer frameView = new UnsafeBuffer(0, 0);

    /** An incomplete message, or null. */
    private ByteBuf partial;
    /** Its length once known, else {@link StreamFramer#NEED_MORE}. */
    private int partialFrameBytes;

    private long partialSinceNs;
    private long lastReadNs;
    private boolean closing;
    private final EventLoopFlush.Slot flushSlot;

    StreamConnection(
            StreamConnections owner,
            StreamHost host,
            Channel channel,
            int listenerId,
            long connectionId,
            TransportAddress client,
            long nowNs) {
        this.owner = owner;
        this.host = host;
        this.channel = channel;
        this.flushSlot = new EventLoopFlush.Slot(channel);
        this.listenerId = listenerId;
        this.connectionId = connectionId;
        this.client = client;
        this.lastReadNs = nowNs;
    }

    Channel channel() {
        return channel;
    }

    EventLoopFlush.Slot flushSlot() {
        return flushSlot;
    }

    long connectionId() {
        return connectionId;
    }

    int listenerId() {
        return listenerId;
    }

    TransportAddress client() {
        return client;
    }

    /** Why the connection should be closed at {@code nowNs}, or null to keep it. */
    StreamEvent timeout(long nowNs, StreamSettings settings) {
        if (partial != null && nowNs - partialSinceNs > settings.messageTimeoutNs()) {
            return StreamEvent.MESSAGE_TIMEOUT;
        }
        if (nowNs - lastReadNs > settings.idleTimeoutNs() && !host.hasAllocation(listenerId, connectionId, client)) {
            return StreamEvent.IDLE_TIMEOUT;
        }
        return null;
    }

    void close(StreamEvent reason) {
        if (!closing) {
            closing = true;
            owner.count(reason);
            channel.close();
        }
    }

    /** Bytes held for an incomplete message. */
    int bufferedBytes() {
        return partial == null ? 0 : partial.capacity();
    }

    void released() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (closing) {
                return;
            }
            lastReadNs = System.nanoTime();
            if (!in.hasMemoryAddress()) {
                ByteBuf direct = ctx.alloc().directBuffer(in.readableBytes());
                direct.writeBytes(in);
                in.release();
                in = direct;
            }
            if (partial != null && !completePartial(in)) {
                return;
            }
            while (in.isReadable() && !closing) {
                frameView.wrap(in.memoryAddress(), in.capacity());
                int available = in.readableBytes();
                int frameBytes = StreamFramer.frameLength(frameView, in.readerIndex(), available);
                if (frameBytes == StreamFramer.INVALID) {
                    close(StreamEvent.BAD_FRAMING);
                    return;
                }
                if (frameBytes == StreamFramer.NEED_MORE || frameBytes > available) {
                    startPartial(ctx, in, frameBytes);
                    return;
                }
                host.onStreamMessage(listenerId, connectionId, client, in, in.readerIndex(), frameBytes);
                in.skipBytes(frameBytes);
            }
        } finally {
            in.release();
        }
    }

    private void startPartial(ChannelHandlerContext ctx, ByteBuf in, int frameBytes) {
        int initialBytes = frameBytes > 0 ? frameBytes : StreamFramer.DECISION_BYTES;
        partial = ctx.alloc().directBuffer(initialBytes, StreamFramer.MAX_FRAME_BYTES);
        partialFrameBytes = frameBytes;
        partialSinceNs = lastReadNs;
        partial.writeBytes(in);
    }

    /**
     * Moves bytes from {@code in} into the incomplete message; when it is complete, hands it over
     * and returns true with the rest of {@code in} unread. Returns false while it is incomplete
     * (all of {@code in} taken) or when the stream turned out invalid.
     */
    private boolean completePartial(ByteBuf in) {
        while (true) {
            int have = partial.readableBytes();
            if (partialFrameBytes == StreamFramer.NEED_MORE) {
                frameView.wrap(partial.memoryAddress(), partial.capacity());
                partialFrameBytes = StreamFramer.frameLength(frameView, partial.readerIndex(), have);
                if (partialFrameBytes == StreamFramer.INVALID) {
                    close(StreamEvent.BAD_FRAMING);
                    return false;
                }
            }
            int target =
                    partialFrameBytes != StreamFramer.NEED_MORE ? partialFrameBytes : StreamFramer.bytesToDecide(have);
            if (have == target && partialFrameBytes != StreamFramer.NEED_MORE) {
                ByteBuf message = partial;
                partial = null;
                try {
                    host.onStreamMessage(listenerId, connectionId, client, message, message.readerIndex(), target);
                } finally {
                    message.release();
                }
                return true;
            }
            if (!in.isReadable()) {
                return false;
            }
            partial.writeBytes(in, Math.min(target - have, in.readableBytes()));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Resets and TLS errors end the connection; its close listener cleans up.
        closing = true;
        ctx.close();
    }
}
