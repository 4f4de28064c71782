package io.tern.netty.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tern.netty.EventLoopFlush;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.TransportProtocol;
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
    private final TransportProtocol protocol;
    /** The peer connection this data connection is bound to (RFC 6062), or null while it carries STUN. */
    private Channel partner;
    /** What to hand to another relay thread's engine once this connection has moved there, or null. */
    private ByteBuf migration;

    private int migrationShard;
    /** Its channel's close listener, removed when the connection moves to another thread. */
    private io.netty.channel.ChannelFutureListener onClose;

    private EventLoopFlush.Slot partnerSlot;
    /** Written since {@link StreamConnections#flushWritten} last ran. */
    boolean written;

    StreamConnection(
            StreamConnections owner,
            StreamHost host,
            Channel channel,
            int listenerId,
            long connectionId,
            TransportAddress client,
            TransportProtocol protocol,
            long nowNs) {
        this.owner = owner;
        this.protocol = protocol;
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

    TransportProtocol protocol() {
        return protocol;
    }

    /** From now on this connection carries raw bytes to and from {@code partner} (RFC 6062 §5.4). */
    void splice(Channel partner, EventLoopFlush.Slot partnerSlot) {
        this.partner = partner;
        this.partnerSlot = partnerSlot;
    }

    void onClose(io.netty.channel.ChannelFutureListener listener) {
        this.onClose = listener;
    }

    io.netty.channel.ChannelFutureListener onClose() {
        return onClose;
    }

    boolean spliced() {
        return partner != null;
    }

    /**
     * Marks the connection for another relay thread: once the message being handled returns, the
     * connection moves there, and {@code message} (with whatever followed it) is handled there again.
     */
    void migrate(int targetShard, ByteBuf message) {
        this.migrationShard = targetShard;
        this.migration = message;
    }

    /** Hands the connection over if it was marked for another thread; true when it was. */
    private boolean handOver(ByteBuf rest) {
        if (migration == null) {
            return false;
        }
        if (rest.isReadable()) {
            migration.writeBytes(rest);
        }
        ByteBuf replay = migration;
        migration = null;
        closing = true;
        owner.handOver(this, migrationShard, replay);
        return true;
    }

    /** Why the connection should be closed at {@code nowNs}, or null to keep it. */
    StreamEvent timeout(long nowNs, StreamSettings settings) {
        if (partner != null) {
            return null;
        }
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
        if (migration != null) {
            migration.release();
            migration = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            if (closing) {
                return;
            }
            lastReadNs = owner.nowNs();
            if (partner != null) {
                forward(in.retain());
                return;
            }
            if (!in.hasMemoryAddress()) {
                ByteBuf direct = ctx.alloc().directBuffer(in.readableBytes());
                direct.writeBytes(in);
                in.release();
                in = direct;
            }
            if (partial != null && !completePartial(in)) {
                return;
            }
            if (handOver(in)) {
                return;
            }
            if (partner != null) {
                if (in.isReadable()) {
                    forward(in.retainedSlice());
                }
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
                if (handOver(in)) {
                    return;
                }
                if (partner != null) {
                    // ConnectionBind succeeded: what follows it is the client's raw data.
                    if (in.isReadable()) {
                        forward(in.retainedSlice());
                    }
                    return;
                }
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

    /** Raw bytes for the peer; reading pauses while the peer's write queue is full. */
    private void forward(ByteBuf bytes) {
        if (!owner.forwardToPeer(this, partnerSlot, bytes)) {
            channel.config().setAutoRead(false);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // TCP only: on TLS the early flush measured 0.84x the end-of-turn flush's packets/s
        // (16 clients, bench/results/2026-12-02-levers-tcp.md), so TLS keeps the turn's flush.
        if (partner == null && !closing && protocol == TransportProtocol.TCP) {
            host.onStreamReadDone();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (partner != null && channel.isWritable()) {
            partner.config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Resets and TLS errors end the connection; its close listener cleans up.
        closing = true;
        ctx.close();
    }
}
