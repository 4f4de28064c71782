package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Turns complete requests into {@link HttpExchange}s, one at a time: one handler per HTTP/1.1
 * connection (where requests queue behind the one being answered, in order, with reading paused)
 * or per HTTP/2 stream (one request each). Cancels the exchange in progress when the connection
 * or stream goes away.
 */
final class HttpExchangeHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger("tern.http");

    private final HttpService service;
    private final boolean http2;
    private ChannelHandlerContext ctx;
    private HttpConnection connection;
    private HttpExchange current;
    private ArrayDeque<FullHttpRequest> queued;
    /** HTTP/2: from the stream's HEADERS to its complete request (a slow body). */
    private ScheduledFuture<?> streamRequestTimeout;

    HttpExchangeHandler(HttpService service, boolean http2) {
        this.service = service;
        this.http2 = http2;
    }

    HttpService service() {
        return service;
    }

    HttpConnection connection() {
        return connection;
    }

    Channel channel() {
        return ctx.channel();
    }

    boolean http2() {
        return http2;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.connection = HttpConnection.of(ctx.channel());
        if (http2) {
            streamRequestTimeout = ctx.executor()
                    .schedule(this::streamTooSlow, service.limits().requestTimeoutMs(), TimeUnit.MILLISECONDS);
        }
    }

    private void streamTooSlow() {
        streamRequestTimeout = null;
        service.counters().add(HttpCounters.Event.CLOSED_SLOW_REQUEST);
        ctx.close(); // resets the stream
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            // HTTP/2 connection frames reach here between the preface and the pipeline switch.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (http2) {
            if (streamRequestTimeout != null) {
                streamRequestTimeout.cancel(false);
                streamRequestTimeout = null;
            }
        } else {
            ConnectionGuard guard = connection.guard();
            if (guard != null) {
                guard.progress();
            }
            if (connection.countOnce()) {
                service.counters().add(HttpCounters.Event.HTTP1_CONNECTION);
            }
        }
        if (current != null) {
            if (queued == null) {
                queued = new ArrayDeque<>();
            }
            if (queued.size() >= service.limits().maxPipelinedRequests()) {
                request.release();
                service.counters().add(HttpCounters.Event.CLOSED_PIPELINE_LIMIT);
                ctx.close();
                return;
            }
            queued.add(request);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        RequestDispatch.dispatch(this, request);
    }

    /** Makes {@code request} the exchange in progress. */
    HttpExchange open(FullHttpRequest request, String path, boolean keepAlive) {
        HttpExchange exchange = new HttpExchange(this, request, path, keepAlive);
        current = exchange;
        connection.exchangeStarted();
        return exchange;
    }

    /** The answer to {@code exchange} is written; the next queued request, if any, goes next. */
    void exchangeDone(HttpExchange exchange, boolean closing) {
        if (exchange != current) {
            return;
        }
        current = null;
        connection.exchangeEnded();
        if (http2 || closing) {
            return;
        }
        FullHttpRequest next = queued == null ? null : queued.poll();
        if (next == null) {
            ctx.channel().config().setAutoRead(true);
            return;
        }
        // On a fresh stack: the previous answer's write is still unwinding.
        ctx.executor().execute(() -> {
            if (ctx.channel().isActive()) {
                RequestDispatch.dispatch(this, next);
            } else {
                next.release();
            }
        });
    }

    /**
     * Hands the connection to {@code handler}: removes every HTTP handler and timeout, keeping the
     * bytes the HTTP decoder read past the request for the new owner.
     */
    void upgrade(UpgradeHandler handler, FullHttpRequest request) {
        ChannelPipeline pipeline = ctx.pipeline();
        LeftoverCollector leftover = new LeftoverCollector();
        String codecName = pipeline.context(HttpServerCodec.class).name();
        removeIfPresent(pipeline, BodilessRequests.class);
        if (pipeline.get(BodilessRequests.AGGREGATOR_NAME) != null) {
            pipeline.remove(BodilessRequests.AGGREGATOR_NAME);
        }
        removeIfPresent(pipeline, HttpServerUpgradeHandler.class);
        removeIfPresent(pipeline, ConnectionGuard.class);
        pipeline.addAfter(codecName, null, leftover);
        pipeline.remove(this);
        pipeline.remove(codecName); // its decoder hands what it buffered to the collector
        pipeline.remove(leftover);
        ByteBuf rest = leftover.take();
        DefaultHttpRequest head =
                new DefaultHttpRequest(request.protocolVersion(), request.method(), request.uri(), request.headers());
        request.release();
        if (queued != null) {
            queued.forEach(FullHttpRequest::release);
            queued = null;
        }
        ctx.channel().config().setAutoRead(true);
        handler.takeOver(new UpgradeRequest(ctx.channel(), head, connection.remote(), connection.secure(), rest));
    }

    private static void removeIfPresent(
            ChannelPipeline pipeline, Class<? extends io.netty.channel.ChannelHandler> type) {
        if (pipeline.get(type) != null) {
            pipeline.remove(type);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (streamRequestTimeout != null) {
            streamRequestTimeout.cancel(false);
            streamRequestTimeout = null;
        }
        HttpExchange exchange = current;
        if (exchange != null) {
            current = null;
            connection.exchangeEnded();
            exchange.cancel();
        }
        if (queued != null) {
            queued.forEach(FullHttpRequest::release);
            queued = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.DEBUG, "HTTP connection error, closing: " + cause);
        ctx.close();
    }

    /** Takes the bytes an HTTP decoder hands on when it is removed. */
    private static final class LeftoverCollector extends ChannelInboundHandlerAdapter {
        private ByteBuf bytes = Unpooled.EMPTY_BUFFER;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf buf) {
                bytes = bytes.isReadable() ? Unpooled.wrappedBuffer(bytes, buf) : buf;
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            // The decoder's removal ends with one; the new owner reads on its own.
        }

        ByteBuf take() {
            ByteBuf taken = bytes;
            bytes = Unpooled.EMPTY_BUFFER;
            return taken;
        }
    }
}
