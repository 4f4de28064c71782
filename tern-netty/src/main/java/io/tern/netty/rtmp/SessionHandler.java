package io.tern.netty.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
import io.tern.rtmp.session.RtmpEvent;
import io.tern.rtmp.session.RtmpSession;
import io.tern.rtmp.session.WriteSink;
import java.nio.ByteBuffer;

/**
 * Drives one {@link RtmpSession} on its channel's event loop, for the listener's connections and
 * the push client alike: bytes read go in; after every input the session's writes leave as one
 * buffer (flushed once per event-loop turn by the loop's {@link EventLoopFlush}) and its events go to
 * {@link #on}, in order; the handler's {@link EngineLoop} arms one timer at the session's next
 * deadline, and every time the session is given is the loop's {@link LoopClock}. Nothing here
 * re-enters the session from inside a drain.
 */
abstract class SessionHandler<S extends RtmpSession> extends ChannelInboundHandlerAdapter implements EngineLoop.Driver {
    static final System.Logger LOG = System.getLogger("tern");

    private final EventLoopFlush flush;
    private final WriteSink writeSink = this::copyOut;
    private ByteBuf pendingOut;
    private EngineLoop engineLoop;
    private EventLoopFlush.Slot slot;
    S session;
    ChannelHandlerContext ctx;

    /** @param flush the flush of the event loop the channel is registered with */
    SessionHandler(EventLoopFlush flush) {
        this.flush = flush;
    }

    /** The session for a channel that just became active. */
    abstract S open(ChannelHandlerContext ctx);

    /** One of the session's events. */
    abstract void on(RtmpEvent event);

    /** Who this is, for log lines. */
    abstract String describe();

    @Override
    public final void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.slot = new EventLoopFlush.Slot(ctx.channel());
        this.engineLoop = new EngineLoop(LoopClock.of(ctx.channel().eventLoop()), this);
        this.session = open(ctx);
        drain();
        ctx.fireChannelActive();
    }

    /** Feeds what was read (and releases it), then drains. */
    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            long nowNs = engineLoop.nowNs();
            if (in.nioBufferCount() == 1) {
                session.onBytes(in.internalNioBuffer(in.readerIndex(), in.readableBytes()), nowNs);
            } else {
                for (ByteBuffer part : in.nioBuffers()) {
                    session.onBytes(part, nowNs);
                }
            }
        } finally {
            in.release();
        }
        drain();
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        engineLoop.close();
        session.onPeerClosed(engineLoop.nowNs());
        drain();
        ctx.fireChannelInactive();
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset or a read error ends the connection; channelInactive reports it.
        LOG.log(System.Logger.Level.DEBUG, describe() + ": " + cause);
        ctx.close();
    }

    /** This turn's time on the loop clock, for the session's inputs. */
    long nowNs() {
        return engineLoop.nowNs();
    }

    /** After an input: writes what the session queued, hands out its events, re-arms the timer. */
    void drain() {
        engineLoop.drain();
    }

    @Override
    public long drainOutputs() {
        if (session.pendingWriteBytes() > 0 && ctx.channel().isActive()) {
            pendingOut = ctx.alloc().directBuffer(session.pendingWriteBytes());
            session.drainWrites(writeSink);
            flush.write(slot, pendingOut);
            pendingOut = null;
        }
        for (RtmpEvent event; (event = session.pollEvent()) != null; ) {
            on(event);
        }
        return session.nextDeadlineNs();
    }

    @Override
    public void onTimeout(long nowNs) {
        session.onTimeout(nowNs);
    }

    /** Whether the write queue is under its high water mark, after flushing what this turn queued. */
    boolean writable() {
        return flush.writable(slot);
    }

    /** Closes the channel once everything written so far (a refusal's status, say) is out. */
    void closeAfterWrites() {
        if (ctx.channel().isActive()) {
            ctx.channel().writeAndFlush(ctx.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void copyOut(byte[] bytes, int offset, int length) {
        pendingOut.writeBytes(bytes, offset, length);
    }
}
