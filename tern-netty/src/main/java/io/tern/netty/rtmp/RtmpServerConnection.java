package io.tern.netty.rtmp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.TurnFlush;
import io.tern.rtmp.session.RtmpEvent;
import io.tern.rtmp.session.RtmpEvent.Closed;
import io.tern.rtmp.session.RtmpEvent.ConfigReceived;
import io.tern.rtmp.session.RtmpEvent.Connected;
import io.tern.rtmp.session.RtmpEvent.MediaReceived;
import io.tern.rtmp.session.RtmpEvent.MetadataReceived;
import io.tern.rtmp.session.RtmpEvent.Notice;
import io.tern.rtmp.session.RtmpEvent.PublishRefused;
import io.tern.rtmp.session.RtmpEvent.PublishRequested;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import io.tern.rtmp.session.RtmpEvent.TimestampDiscontinuity;
import io.tern.rtmp.session.RtmpEvent.Unpublished;
import io.tern.rtmp.session.RtmpServerSession;
import io.tern.rtmp.session.RtmpStats;
import io.tern.rtmp.session.WriteSink;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One publisher's connection: feeds what it reads to its {@link RtmpServerSession}, then drains
 * the session's writes (one buffer per input, flushed once per event-loop turn) and events (handed
 * to the {@link RtmpIngestHandler}), and arms one timer at the session's next deadline. The
 * session is only touched on the channel's event loop; decisions from other threads hop onto it.
 */
final class RtmpServerConnection extends ChannelInboundHandlerAdapter implements RtmpPublisher {
    private static final System.Logger LOG = System.getLogger("tern");
    /** Notices logged per connection; later ones are only counted in the session's stats. */
    private static final int LOGGED_NOTICES = 3;

    private final long connectionId;
    private final RtmpListenerSettings settings;
    private final RtmpIngestHandler handler;
    private final TurnFlush flush;
    private final WriteSink writeSink = this::copyOut;
    private final Runnable onTimer = this::onTimer;

    private RtmpServerSession session;
    private ChannelHandlerContext ctx;
    private TurnFlush.Slot slot;
    private InetSocketAddress remote;
    private ByteBuf pendingOut;
    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;
    private volatile String app = "";
    private volatile String streamName;
    private volatile String query = "";
    private boolean accepted;
    private boolean closedByApplication;
    private int noticesLogged;

    RtmpServerConnection(long connectionId, RtmpListenerSettings settings, RtmpIngestHandler handler, TurnFlush flush) {
        this.connectionId = connectionId;
        this.settings = settings;
        this.handler = handler;
        this.flush = flush;
    }

    // ---- RtmpPublisher -------------------------------------------------------------------------

    @Override
    public long connectionId() {
        return connectionId;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public String app() {
        return app;
    }

    @Override
    public String streamName() {
        return streamName;
    }

    @Override
    public String query() {
        return query;
    }

    @Override
    public CompletableFuture<RtmpStats> stats() {
        CompletableFuture<RtmpStats> result = new CompletableFuture<>();
        ctx.executor().execute(() -> result.complete(session.stats()));
        return result;
    }

    @Override
    public void close(String reason) {
        ctx.executor().execute(() -> {
            closedByApplication = true;
            session.close(reason, System.nanoTime());
            drain();
        });
    }

    // ---- Netty ---------------------------------------------------------------------------------

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.remote = (InetSocketAddress) ctx.channel().remoteAddress();
        this.slot = new TurnFlush.Slot(ctx.channel());
        // S1's random bytes need no cryptographic strength; each connection gets its own generator.
        this.session = new RtmpServerSession(
                settings.engine(),
                new SplittableRandom(ThreadLocalRandom.current().nextLong()),
                System.nanoTime());
        armTimer();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
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

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        session.onPeerClosed(System.nanoTime());
        drain();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset or a read error ends the connection; channelInactive reports it.
        LOG.log(System.Logger.Level.DEBUG, "RTMP " + remote + ": " + cause);
        ctx.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable() && ctx.channel().isActive()) {
            flush.writable(slot); // flushes what this turn queued, then looks again
            if (!ctx.channel().isWritable()) {
                session.close(
                        "write queue over " + settings.writeHighWaterMarkBytes() + " bytes: the peer is not reading",
                        System.nanoTime());
                drain();
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    // ---- draining the engine -------------------------------------------------------------------

    private void drain() {
        if (session.pendingWriteBytes() > 0 && ctx.channel().isActive()) {
            pendingOut = ctx.alloc().directBuffer(session.pendingWriteBytes());
            session.drainWrites(writeSink);
            flush.write(slot, pendingOut);
            pendingOut = null;
        }
        for (RtmpEvent event; (event = session.pollEvent()) != null; ) {
            dispatch(event);
        }
        armTimer();
    }

    private void copyOut(byte[] bytes, int offset, int length) {
        pendingOut.writeBytes(bytes, offset, length);
    }

    private void dispatch(RtmpEvent event) {
        switch (event) {
            case MediaReceived m -> handler.onAccessUnit(this, m.unit());
            case ConfigReceived c -> onConfig(c.config());
            case TimestampDiscontinuity d -> {
                LOG.log(
                        System.Logger.Level.INFO,
                        describe() + ": timestamp " + d.kind() + " on " + d.track() + " from " + d.previousDts()
                                + " to " + d.dts() + " (90 kHz)");
                handler.onDiscontinuity(this, d);
            }
            case MetadataReceived m -> handler.onMetadata(this, m.properties());
            case Connected c -> app = c.app();
            case PublishRequested r -> {
                streamName = r.streamName();
                query = r.query();
                handler.onPublishRequest(this, new Decision(r.messageStreamId()));
            }
            case PublishStarted s -> {
                // Reported when the decision was applied.
            }
            case Unpublished u -> endOfStream(u.reason());
            case Notice n -> {
                if (noticesLogged++ < LOGGED_NOTICES) {
                    LOG.log(System.Logger.Level.INFO, describe() + ": " + n.detail());
                }
            }
            case Closed c -> closed(c);
            case PublishRefused r -> {
                // Only a client session reports this.
            }
        }
    }

    private void onConfig(CodecConfig config) {
        LOG.log(System.Logger.Level.INFO, describe() + ": " + config.track() + " " + config);
        handler.onCodecConfig(this, config);
    }

    private void endOfStream(String reason) {
        if (accepted) {
            accepted = false;
            LOG.log(System.Logger.Level.INFO, describe() + ": publish ended (" + reason + ")");
            handler.onEndOfStream(this, reason);
        }
    }

    private void closed(Closed c) {
        System.Logger.Level level = switch (c.reason()) {
            case PEER_CLOSED, LOCAL_CLOSE -> System.Logger.Level.INFO;
            default -> System.Logger.Level.WARNING;
        };
        LOG.log(level, describe() + " closed: " + c.reason() + ": " + c.detail());
        handler.onConnectionClosed(this, c.reason(), c.detail());
        if (ctx.channel().isActive()) {
            // Whatever the session still queued (a refusal's status) goes out before the close.
            ctx.channel().writeAndFlush(ctx.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private String describe() {
        return "RTMP " + remote + (streamName == null ? "" : " " + app + "/" + streamName);
    }

    private void armTimer() {
        long deadline = session.nextDeadlineNs();
        if (deadline == Long.MAX_VALUE || (timer != null && timerDeadlineNs <= deadline)) {
            return; // a timer that fires early re-arms for the later deadline
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

    private void applyDecision(int messageStreamId, String refusal) {
        long nowNs = System.nanoTime();
        boolean applied = refusal == null
                ? session.acceptPublish(messageStreamId, nowNs)
                : session.refusePublish(messageStreamId, refusal, nowNs);
        if (refusal == null) {
            if (applied) {
                accepted = true;
                LOG.log(System.Logger.Level.INFO, describe() + ": publish accepted");
            } else {
                // Accepted too late: keep the promise of one end of stream per accepted publish.
                handler.onEndOfStream(this, "connection closed before the publish was accepted");
            }
        } else if (applied) {
            LOG.log(System.Logger.Level.INFO, describe() + ": publish refused: " + refusal);
        }
        drain();
    }

    /** One publish request's answer; it always runs on the event loop, after the current drain. */
    private final class Decision implements PublishDecision {
        private final int messageStreamId;
        private final AtomicBoolean answered = new AtomicBoolean();

        Decision(int messageStreamId) {
            this.messageStreamId = messageStreamId;
        }

        @Override
        public void accept() {
            if (answered.compareAndSet(false, true)) {
                ctx.executor().execute(() -> applyDecision(messageStreamId, null));
            }
        }

        @Override
        public void refuse(String description) {
            if (answered.compareAndSet(false, true)) {
                ctx.executor().execute(() -> applyDecision(messageStreamId, description));
            }
        }
    }
}
