package io.tern.netty.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.tern.netty.stream.StreamEvent;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * Builds a connection's pipeline. Every HTTP version ends in the same {@link HttpExchangeHandler}:
 *
 * <pre>
 * HTTP/1.1   [tls] guard HttpServerCodec bodiless [HttpObjectAggregator] exchange
 * h2c        guard h2c-detect(HttpServerCodec, Upgrade: h2c) ... as HTTP/1.1, until the
 *            preface or an upgrade switches to the HTTP/2 pipeline below
 * HTTP/2     [tls] guard Http2FrameCodec progress Http2MultiplexHandler tail
 *            each stream: Http2StreamFrameToHttpObjectCodec HttpObjectAggregator exchange
 * </pre>
 *
 * The guard keeps every timeout of the connection on one timer. An HTTP/1.1 connection gets its
 * aggregator from {@link BodilessRequests} with its first request that may have a body: a viewer's
 * GETs never need one.
 */
final class HttpConnectionInitializer extends ChannelInitializer<Channel> {
    private static final System.Logger LOG = System.getLogger("tern.http");
    private static final Http2StreamFrameToHttpObjectCodec STREAM_CODEC = new Http2StreamFrameToHttpObjectCodec(true);

    private final HttpService service;
    private final Supplier<SslContext> tls;
    private final StreamInitializer streams = new StreamInitializer();
    /** One listener for every connection's close, not a lambda per connection. */
    private final ChannelFutureListener released = this::released;

    private final ConnectionGuard.Settings guardSettings;

    HttpConnectionInitializer(HttpService service, Supplier<SslContext> tls) {
        this.service = service;
        this.tls = tls;
        this.guardSettings = new ConnectionGuard.Settings(service.counters(), service.limits());
    }

    @Override
    protected void initChannel(Channel channel) {
        HttpConnection connection = new HttpConnection(channel.remoteAddress(), tls != null);
        HttpConnection.attach(channel, connection);
        HttpCounters counters = service.counters();
        StreamEvent refused = service.connectionLimiter().tryAcquire(connection.ip());
        if (refused != null) {
            counters.add(
                    refused == StreamEvent.REJECTED_TOTAL_LIMIT
                            ? HttpCounters.Event.CONNECTION_REJECTED_TOTAL
                            : HttpCounters.Event.CONNECTION_REJECTED_PER_IP);
            channel.close();
            return;
        }
        counters.add(HttpCounters.Event.CONNECTION_ACCEPTED);
        counters.connectionsDelta(1);
        channel.closeFuture().addListener(released);
        HttpLimits limits = service.limits();
        ChannelPipeline pipeline = channel.pipeline();
        if (tls != null) {
            SslHandler ssl = tls.get().newHandler(channel.alloc());
            ssl.setHandshakeTimeoutMillis(limits.tlsHandshakeTimeoutMs());
            pipeline.addLast("tls", ssl);
        }
        pipeline.addLast("guard", new ConnectionGuard(guardSettings, connection));
        if (tls != null) {
            pipeline.addLast("alpn", new Alpn(connection));
            return;
        }
        HttpServerCodec codec = newCodec();
        HttpServerUpgradeHandler upgrade = new HttpServerUpgradeHandler(
                codec,
                protocol -> Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME.toString().contentEquals(protocol)
                        ? new H2cUpgrade(connection)
                        : null,
                limits.maxBodyBytes(),
                io.netty.handler.codec.http.DefaultHttpHeadersFactory.headersFactory(),
                io.netty.handler.codec.http.DefaultHttpHeadersFactory.trailersFactory(),
                true);
        pipeline.addLast("h2c", new CleartextHttp2ServerUpgradeHandler(codec, upgrade, new PriorKnowledge(connection)));
        addHttp1Tail(pipeline);
    }

    private void released(ChannelFuture closed) {
        service.connectionLimiter().release(HttpConnection.of(closed.channel()).ip());
        service.counters().connectionsDelta(-1);
    }

    private HttpServerCodec newCodec() {
        HttpLimits limits = service.limits();
        return new HttpServerCodec(
                new HttpDecoderConfig()
                        .setMaxInitialLineLength(limits.maxUriBytes() + 64)
                        .setMaxHeaderSize(limits.maxHeaderBytes()),
                limits.maxPipelinedRequests() + 2);
    }

    private void addHttp1Tail(ChannelPipeline pipeline) {
        pipeline.addLast(
                BodilessRequests.NAME, new BodilessRequests(service.limits().maxBodyBytes()));
        pipeline.addLast("exchange", new HttpExchangeHandler(service, false));
    }

    /** Replaces the HTTP/1.1 tail with the HTTP/2 pipeline, after {@code after}. */
    private void switchToHttp2(ChannelPipeline pipeline, HttpConnection connection, String after) {
        connection.http2(true);
        for (String name : new String[] {BodilessRequests.NAME, BodilessRequests.AGGREGATOR_NAME, "exchange"}) {
            if (pipeline.get(name) != null) {
                pipeline.remove(name);
            }
        }
        pipeline.addAfter(after, "h2", newFrameCodec());
        addHttp2Handlers(pipeline, "h2");
    }

    private void addHttp2Handlers(ChannelPipeline pipeline, String after) {
        pipeline.addAfter(after, "h2-progress", new FrameProgress());
        pipeline.addAfter("h2-progress", "h2-streams", new Http2MultiplexHandler(streams));
        pipeline.addAfter("h2-streams", "h2-tail", new ConnectionTail());
    }

    private Http2FrameCodec newFrameCodec() {
        HttpLimits limits = service.limits();
        return Http2FrameCodecBuilder.forServer()
                .initialSettings(Http2Settings.defaultSettings()
                        .maxConcurrentStreams(limits.maxStreamsPerConnection())
                        .maxHeaderListSize(limits.maxHeaderBytes()))
                .build();
    }

    /** TLS: h2 or http/1.1, as the client and ALPN agreed (http/1.1 without ALPN). */
    private final class Alpn extends ApplicationProtocolNegotiationHandler {
        private final HttpConnection connection;

        Alpn(HttpConnection connection) {
            super(ApplicationProtocolNames.HTTP_1_1);
            this.connection = connection;
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            ChannelPipeline pipeline = ctx.pipeline();
            if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                service.counters().add(HttpCounters.Event.HTTP2_TLS_CONNECTION);
                switchToHttp2(pipeline, connection, ctx.name());
            } else {
                pipeline.addAfter(ctx.name(), "http", newCodec());
                addHttp1Tail(pipeline);
            }
        }

        @Override
        protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(System.Logger.Level.DEBUG, "TLS handshake failed: " + cause);
            ctx.close();
        }
    }

    /** h2c by prior knowledge: added by the detector when the client opens with the HTTP/2 preface. */
    private final class PriorKnowledge extends ChannelInboundHandlerAdapter {
        private final HttpConnection connection;

        PriorKnowledge(HttpConnection connection) {
            this.connection = connection;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            service.counters().add(HttpCounters.Event.H2C_PRIOR_KNOWLEDGE);
            switchToHttp2(ctx.pipeline(), connection, ctx.name());
            ctx.pipeline().remove(this);
        }
    }

    /** {@code Upgrade: h2c}: Netty's upgrade codec, after the HTTP/1.1 tail is gone. */
    private final class H2cUpgrade implements HttpServerUpgradeHandler.UpgradeCodec {
        private final HttpConnection connection;
        private final Http2ServerUpgradeCodec codec;

        H2cUpgrade(HttpConnection connection) {
            this.connection = connection;
            this.codec = new Http2ServerUpgradeCodec(
                    newFrameCodec(), new FrameProgress(), new Http2MultiplexHandler(streams), new ConnectionTail());
        }

        @Override
        public Collection<CharSequence> requiredUpgradeHeaders() {
            return codec.requiredUpgradeHeaders();
        }

        @Override
        public boolean prepareUpgradeResponse(
                ChannelHandlerContext ctx, FullHttpRequest upgradeRequest, HttpHeaders upgradeHeaders) {
            return codec.prepareUpgradeResponse(ctx, upgradeRequest, upgradeHeaders);
        }

        @Override
        public void upgradeTo(ChannelHandlerContext ctx, FullHttpRequest upgradeRequest) {
            service.counters().add(HttpCounters.Event.H2C_UPGRADE);
            connection.http2(true);
            ChannelPipeline pipeline = ctx.pipeline();
            pipeline.remove(BodilessRequests.NAME);
            if (pipeline.get(BodilessRequests.AGGREGATOR_NAME) != null) {
                pipeline.remove(BodilessRequests.AGGREGATOR_NAME);
            }
            pipeline.remove("exchange");
            codec.upgradeTo(ctx, upgradeRequest);
        }
    }

    /** Each HTTP/2 stream: HTTP objects in and out, so the HTTP/1.1 exchange handler serves it. */
    @ChannelHandler.Sharable
    private final class StreamInitializer extends ChannelInitializer<Http2StreamChannel> {
        @Override
        protected void initChannel(Http2StreamChannel stream) {
            stream.pipeline()
                    .addLast(
                            STREAM_CODEC,
                            new HttpObjectAggregator(service.limits().maxBodyBytes()),
                            new HttpExchangeHandler(service, true));
        }
    }

    /** A complete HTTP/2 frame stops the connection's slow-request clock. */
    private static final class FrameProgress extends ChannelInboundHandlerAdapter {
        private ConnectionGuard guard;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            guard = HttpConnection.of(ctx.channel()).guard();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (guard != null) {
                guard.progress();
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** The end of an HTTP/2 connection's pipeline: connection-level frames stop here. */
    private static final class ConnectionTail extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(System.Logger.Level.DEBUG, "HTTP/2 connection error, closing: " + cause);
            ctx.close();
        }
    }
}
