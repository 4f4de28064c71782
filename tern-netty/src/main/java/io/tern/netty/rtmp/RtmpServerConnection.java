package io.tern.netty.rtmp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.EventLoopFlush;
import io.tern.rtmp.CloseReason;
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
import java.net.InetSocketAddress;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One publisher's connection: its {@link RtmpServerSession}, driven by a {@link SessionDriver},
 * with the session's events handed to the {@link RtmpIngestHandler}. The session is only touched
 * on the channel's event loop; decisions from other threads hop onto it.
 */
final class RtmpServerConnection extends SessionHandler<RtmpServerSession> implements RtmpPublisher {
    /** Notices logged per connection; later ones are only counted in the session's stats. */
    private static final int LOGGED_NOTICES = 3;

    private final long connectionId;
    private final RtmpListenerSettings settings;
    private final RtmpIngestHandler handler;
    private InetSocketAddress remote;
    private volatile String app = "";
    private volatile String streamName;
    private volatile String query = "";
    private boolean accepted;
    private boolean closedByApplication;
    private int noticesLogged;

    RtmpServerConnection(
            long connectionId, RtmpListenerSettings settings, RtmpIngestHandler handler, EventLoopFlush flush) {
        super(flush);
        this.connectionId = connectionId;
        this.settings = settings;
        this.handler = handler;
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
    public EventLoop eventLoop() {
        return ctx.channel().eventLoop();
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
            session.close(reason, nowNs());
            drain();
        });
    }

    // ---- Netty ---------------------------------------------------------------------------------

    @Override
    RtmpServerSession open(ChannelHandlerContext ctx) {
        this.remote = (InetSocketAddress) ctx.channel().remoteAddress();
        // S1's random bytes need no cryptographic strength; each connection gets its own generator.
        return new RtmpServerSession(
                settings.engine(),
                new SplittableRandom(ThreadLocalRandom.current().nextLong()),
                nowNs());
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable() && ctx.channel().isActive() && !writable()) {
            session.close(
                    "write queue over " + settings.writeHighWaterMarkBytes() + " bytes: the peer is not reading",
                    nowNs());
            drain();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    void on(RtmpEvent event) {
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
        // A publisher leaving and the application's own close are normal; everything else is worth a warning.
        boolean normal =
                c.reason() == CloseReason.PEER_CLOSED || (c.reason() == CloseReason.LOCAL_CLOSE && closedByApplication);
        System.Logger.Level level = normal ? System.Logger.Level.INFO : System.Logger.Level.WARNING;
        LOG.log(level, describe() + " closed: " + c.reason() + ": " + c.detail());
        handler.onConnectionClosed(this, c.reason(), c.detail());
        closeAfterWrites();
    }

    @Override
    String describe() {
        return "RTMP " + remote + (streamName == null ? "" : " " + app + "/" + streamName);
    }

    private void applyDecision(int messageStreamId, String refusal) {
        long nowNs = nowNs();
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
    private final class Decision implements PublishReply {
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
