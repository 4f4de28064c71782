package io.tern.netty.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * Behind the HTTP/1.1 decoder: a request without a body (the decoder ends it with {@link
 * LastHttpContent#EMPTY_LAST_CONTENT}) becomes its {@link FullHttpRequest} here, as an {@link
 * HttpObjectAggregator} would make it (the decoder's headers, {@code Content-Length: 0} unless one
 * was sent, no trailers) but with the empty buffer for content: the aggregator makes a composite
 * buffer per request, which a GET for a part never fills.
 *
 * <p>Requests with {@code Transfer-Encoding} or {@code Expect}, and everything else, pass through
 * unchanged and in order to an aggregator, which this handler adds behind itself the first time
 * one is needed: a connection that only ever sends GETs and HEADs never has one.
 */
final class BodilessRequests extends ChannelInboundHandlerAdapter {
    static final String NAME = "bodiless";
    static final String AGGREGATOR_NAME = "aggregator";

    private final int maxBodyBytes;
    /** A request whose end is the next message from the decoder, which sends both in one go. */
    private HttpRequest pending;

    BodilessRequests(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        HttpRequest request = pending;
        if (request != null) {
            pending = null;
            if (msg == LastHttpContent.EMPTY_LAST_CONTENT) {
                ctx.fireChannelRead(full(request));
            } else {
                toAggregator(ctx, request);
                ctx.fireChannelRead(msg);
            }
            return;
        }
        if (msg instanceof HttpRequest start && !(msg instanceof FullHttpRequest) && mayHaveNoBody(start)) {
            pending = start;
            return;
        }
        if (msg instanceof HttpRequest start && !(msg instanceof FullHttpRequest)) {
            toAggregator(ctx, start);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** The start of a request with a body, or one that is not complete yet: aggregated from here on. */
    private void toAggregator(ChannelHandlerContext ctx, HttpRequest start) {
        if (ctx.pipeline().get(AGGREGATOR_NAME) == null) {
            ctx.pipeline().addAfter(ctx.name(), AGGREGATOR_NAME, new HttpObjectAggregator(maxBodyBytes));
        }
        ctx.fireChannelRead(start);
    }

    private static boolean mayHaveNoBody(HttpRequest request) {
        HttpHeaders headers = request.headers();
        return request.decoderResult().isSuccess()
                && !headers.contains(HttpHeaderNames.TRANSFER_ENCODING)
                && !headers.contains(HttpHeaderNames.EXPECT);
    }

    private static FullHttpRequest full(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (!headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        }
        FullHttpRequest full = new DefaultFullHttpRequest(
                request.protocolVersion(),
                request.method(),
                request.uri(),
                Unpooled.EMPTY_BUFFER,
                headers,
                LastHttpContent.EMPTY_LAST_CONTENT.trailingHeaders());
        full.setDecoderResult(request.decoderResult());
        return full;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushPending(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        flushPending(ctx);
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // Out of the pipeline already: the new handlers behind it (HTTP/2, an upgrade) take the start.
        HttpRequest request = pending;
        if (request != null) {
            pending = null;
            ctx.fireChannelRead(request);
        }
    }

    /** A request whose end has not come: the aggregator waits for it, as it would have. */
    private void flushPending(ChannelHandlerContext ctx) {
        HttpRequest request = pending;
        if (request != null) {
            pending = null;
            toAggregator(ctx, request);
        }
    }
}
