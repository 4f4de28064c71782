package io.tern.netty.rtmp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.tern.media.AccessUnit;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.amf.AmfValue;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpClientSession;
import io.tern.rtmp.session.RtmpEvent;
import io.tern.rtmp.session.RtmpEvent.Closed;
import io.tern.rtmp.session.RtmpEvent.PublishRefused;
import io.tern.rtmp.session.RtmpEvent.PublishStarted;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.rtmp.session.RtmpStats;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes one stream to an RTMP server (another origin, nginx-rtmp, Tern itself) with an
 * {@link RtmpClientSession}: connect, publish, then configurations and access units. Every method
 * may be called from any thread; the work runs on the connection's event loop, in call order.
 *
 * <p>Bounded: media sent before {@link #published()} completes is dropped and counted, and an
 * origin that falls behind (the write queue past its high water mark, or too many bytes
 * unacknowledged) ends the connection with that reason rather than queueing without limit.
 */
public final class RtmpPushClient implements AutoCloseable {
    public static final int DEFAULT_PORT = 1935;

    private final Channel channel;
    private final String url;
    private final int highWaterMarkBytes;
    private final CompletableFuture<Void> published = new CompletableFuture<>();
    private final CompletableFuture<Closed> closed = new CompletableFuture<>();
    private final AtomicLong dropped = new AtomicLong();
    private final Handler handler;

    private RtmpPushClient(
            EventLoopGroup group,
            InetSocketAddress server,
            RtmpClientSession.Target target,
            RtmpSettings settings,
            HandshakeScheme scheme,
            int lowWaterMarkBytes,
            int highWaterMarkBytes) {
        this.url = target.tcUrl() + "/" + target.streamName();
        this.highWaterMarkBytes = highWaterMarkBytes;
        // The channel's loop is chosen here so that its per-turn flush can be made for it.
        EventLoop loop = group.next();
        this.handler = new Handler(new EventLoopFlush(loop), settings, target, scheme);
        this.channel = new Bootstrap()
                .group(loop)
                .channel(NettyTransports.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        TimeUnit.NANOSECONDS.toMillis(settings.handshakeTimeoutNs()))
                .option(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(lowWaterMarkBytes, highWaterMarkBytes))
                .handler(handler)
                .connect(server)
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        published.completeExceptionally(f.cause());
                        closed.complete(new Closed(CloseReason.PEER_CLOSED, "connect failed: " + f.cause()));
                    }
                })
                .channel();
    }

    /**
     * Connects to {@code rtmp://host[:port]/app/stream[?query]} and publishes {@code stream}
     * (with its query, which often carries a token), with a 256 KiB-4 MiB write queue.
     */
    public static RtmpPushClient connect(EventLoopGroup group, URI url, RtmpSettings settings, HandshakeScheme scheme) {
        return connect(group, url, settings, scheme, 256 * 1024, 4 * 1024 * 1024);
    }

    public static RtmpPushClient connect(
            EventLoopGroup group,
            URI url,
            RtmpSettings settings,
            HandshakeScheme scheme,
            int lowWaterMarkBytes,
            int highWaterMarkBytes) {
        if (!"rtmp".equalsIgnoreCase(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("not an rtmp://host/app/stream URL: " + url);
        }
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        int slash = path.indexOf('/', 1);
        if (path.length() < 2 || slash < 0 || slash == path.length() - 1) {
            throw new IllegalArgumentException("the URL names no app and stream: " + url);
        }
        int port = url.getPort() < 0 ? DEFAULT_PORT : url.getPort();
        String app = path.substring(1, slash);
        String stream = path.substring(slash + 1) + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        String tcUrl = "rtmp://" + url.getHost() + ":" + port + "/" + app;
        return new RtmpPushClient(
                group,
                new InetSocketAddress(url.getHost(), port),
                new RtmpClientSession.Target(app, tcUrl, stream),
                settings,
                scheme,
                lowWaterMarkBytes,
                highWaterMarkBytes);
    }

    /** Completes when the server answered NetStream.Publish.Start; fails if it refused or the connection ended. */
    public CompletableFuture<Void> published() {
        return published;
    }

    /** Completes when the connection is over, with why. */
    public CompletableFuture<Closed> closed() {
        return closed;
    }

    /** Media dropped because it was sent before the publish started or after the end. */
    public long droppedMessages() {
        return dropped.get();
    }

    public void sendMetadata(Map<String, AmfValue> properties) {
        run(session -> session.sendMetadata(properties));
    }

    public void sendConfig(CodecConfig config, long timestampMs) {
        run(session -> session.sendConfig(config, timestampMs));
    }

    public void sendAccessUnit(AccessUnit unit) {
        run(session -> session.sendAccessUnit(unit));
    }

    /** One FLV tag body as it is (type 8, 9 or 18), for replaying a file. */
    public void sendTag(int tagType, long timestampMs, byte[] data) {
        run(session -> session.sendTag(tagType, timestampMs, data, 0, data.length));
    }

    /** The session's counters, read on its event loop. */
    public CompletableFuture<RtmpStats> stats() {
        CompletableFuture<RtmpStats> result = new CompletableFuture<>();
        channel.eventLoop().execute(() -> {
            if (handler.session == null) {
                result.completeExceptionally(new IllegalStateException("not connected"));
            } else {
                result.complete(handler.session.stats());
            }
        });
        return result;
    }

    /** Ends the publish (FCUnpublish, deleteStream) and closes once that is written. */
    public void unpublish() {
        channel.eventLoop().execute(() -> {
            if (handler.session != null) {
                handler.session.unpublish(handler.nowNs());
                handler.drain();
            } else {
                channel.close();
            }
        });
    }

    @Override
    public void close() {
        channel.eventLoop().execute(() -> {
            if (handler.session != null) {
                handler.session.close("closed by the application", handler.nowNs());
                handler.drain();
            } else {
                channel.close();
            }
        });
    }

    private interface Send {
        boolean apply(RtmpClientSession session);
    }

    private void run(Send send) {
        channel.eventLoop().execute(() -> {
            RtmpClientSession session = handler.session;
            if (session == null || session.isClosed() || !session.publishing()) {
                dropped.incrementAndGet();
                return;
            }
            if (!send.apply(session)) {
                session.close(
                        "the origin stopped acknowledging: " + session.unacknowledgedBytes() + " bytes unacknowledged",
                        handler.nowNs());
            } else if (!channel.isWritable() && !handler.writable()) {
                session.close(
                        "the origin cannot keep up: write queue over " + highWaterMarkBytes + " bytes",
                        handler.nowNs());
            }
            handler.drain();
        });
    }

    /** The channel's handler: one client session. */
    private final class Handler extends SessionHandler<RtmpClientSession> {
        private final RtmpSettings settings;
        private final RtmpClientSession.Target target;
        private final HandshakeScheme scheme;

        Handler(EventLoopFlush flush, RtmpSettings settings, RtmpClientSession.Target target, HandshakeScheme scheme) {
            super(flush);
            this.settings = settings;
            this.target = target;
            this.scheme = scheme;
        }

        @Override
        RtmpClientSession open(ChannelHandlerContext ctx) {
            return new RtmpClientSession(
                    settings,
                    target,
                    scheme,
                    new SplittableRandom(ThreadLocalRandom.current().nextLong()),
                    nowNs());
        }

        @Override
        String describe() {
            return "RTMP push to " + url;
        }

        @Override
        void on(RtmpEvent event) {
            switch (event) {
                case PublishStarted s -> {
                    LOG.log(System.Logger.Level.INFO, "RTMP push to " + url + " publishing");
                    published.complete(null);
                }
                case PublishRefused r ->
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "RTMP push to " + url + " refused: " + r.code() + " (" + r.description() + ")");
                case Closed c -> {
                    LOG.log(
                            c.reason() == CloseReason.LOCAL_CLOSE
                                    ? System.Logger.Level.INFO
                                    : System.Logger.Level.WARNING,
                            "RTMP push to " + url + " closed: " + c.reason() + ": " + c.detail());
                    published.completeExceptionally(new IllegalStateException(c.reason() + ": " + c.detail()));
                    closed.complete(c);
                    closeAfterWrites();
                }
                default -> {
                    // Connected, notices: nothing to do for a publisher.
                }
            }
        }
    }
}
