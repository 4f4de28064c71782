package io.tern.netty.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.netty.TurnFlush;
import io.tern.rtmp.session.RtmpEvent;
import io.tern.rtmp.session.RtmpSession;
import io.tern.rtmp.session.WriteSink;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Drives one {@link RtmpSession} on its channel's event loop, for the listener's connections and
 * the push client alike: bytes read go in; after every input the session's writes leave as one
 * buffer (flushed once per event-loop turn by the loop's {@link TurnFlush}) and its events go to
 * the owner, in order; one timer is armed at the session's next deadline. Nothing here re-enters
 * the session from inside a drain.
 */
final class SessionDriver {
    /** Receives the session's events, on the event loop. */
    interface Events {
        void on(RtmpEvent event);
    }

    private final RtmpSession session;
    private final ChannelHandlerContext ctx;
    private final TurnFlush flush;
    private final TurnFlush.Slot slot;
    private final Events events;
    private final WriteSink writeSink = this::copyOut;
    private final Runnable onTimer = this::onTimer;
    private ByteBuf pendingOut;
    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;

    SessionDriver(RtmpSession session, ChannelHandlerContext ctx, TurnFlush flush, Events events) {
        this.session = session;
        this.ctx = ctx;
        this.flush = flush;
        this.slot = new TurnFlush.Slot(ctx.channel());
        this.events = events;
    }

    /** Feeds what was read (and releases it), then drains. */
    void read(ByteBuf in) {
        try {
            long nowNs = System.nanoTime();
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

    void peerClosed() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        session.onPeerClosed(System.nanoTime());
        drain();
    }

    /** Writes what the session queued, hands out its events, re-arms the timer. */
    void drain() {
        if (session.pendingWriteBytes() > 0 && ctx.channel().isActive()) {
            pendingOut = ctx.alloc().directBuffer(session.pendingWriteBytes());
            session.drainWrites(writeSink);
            flush.write(slot, pendingOut);
            pendingOut = null;
        }
        for (RtmpEvent event; (event = session.pollEvent()) != null; ) {
            events.on(event);
        }
        armTimer();
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

    private void armTimer() {
        long deadline = session.nextDeadlineNs();
        if (deadline == Long.MAX_VALUE || (timer != null && timerDeadlineNs <= deadline)) {
            return; // a timer that fires early finds nothing due and re-arms for the later deadline
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerDeadlineNs = deadline;
        timer = ctx.executor().schedule(onTimer, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        timerDeadlineNs = Long.MAX_VALUE;
        session.onTimeout(System.nanoTime());
        drain();
    }
}
