package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A connection's timeouts, in front of the HTTP codecs (behind TLS):
 *
 * <ul>
 *   <li><b>slow requests</b> (slow-loris): the first byte of a request starts a clock that a
 *       complete request (HTTP/1.1) or a complete frame (HTTP/2) stops; past the request timeout
 *       the connection gets 408 (HTTP/1.1) and is closed;
 *   <li><b>idle</b>: an {@link IdleStateEvent} closes the connection only when no request is being
 *       handled, held or streamed on it;
 *   <li><b>slow readers</b>: a write buffer that stays full past the slow-reader timeout closes it.
 * </ul>
 *
 * The request clock is a field, not a timer per read: one check is scheduled per timeout period
 * at most, and it re-arms itself only while a request is incomplete.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
    private static final byte[] REQUEST_TIMEOUT =
            "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

    private final HttpCounters counters;
    private final HttpConnection connection;
    private final long requestTimeoutNs;
    private final long slowReaderTimeoutNs;
    private ChannelHandlerContext ctx;
    /** When the request now incomplete sent its first byte; -1 when none is. */
    private long requestStartNs = -1;

    private ScheduledFuture<?> requestCheck;
    private ScheduledFuture<?> slowReaderClose;

    ConnectionGuard(HttpCounters counters, HttpConnection connection, HttpLimits limits) {
        this.counters = counters;
        this.connection = connection;
        this.requestTimeoutNs = TimeUnit.MILLISECONDS.toNanos(limits.requestTimeoutMs());
        this.slowReaderTimeoutNs = TimeUnit.MILLISECONDS.toNanos(limits.slowReaderTimeoutMs());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        connection.guard(this);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (requestStartNs < 0 && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            requestStartNs = ctx.executor().ticker().nanoTime();
            if (requestCheck == null) {
                requestCheck = ctx.executor().schedule(this::checkRequest, requestTimeoutNs, TimeUnit.NANOSECONDS);
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** A request (HTTP/1.1) or a frame (HTTP/2) is complete: the slow-request clock stops. */
    void progress() {
        requestStartNs = -1;
    }

    private void checkRequest() {
        requestCheck = null;
        if (requestStartNs < 0 || !ctx.channel().isActive()) {
            return;
        }
        long waitedNs = ctx.executor().ticker().nanoTime() - requestStartNs;
        if (waitedNs < requestTimeoutNs) {
            requestCheck =
                    ctx.executor().schedule(this::checkRequest, requestTimeoutNs - waitedNs, TimeUnit.NANOSECONDS);
            return;
        }
        counters.add(HttpCounters.Event.CLOSED_SLOW_REQUEST);
        if (connection.http2()) {
            ctx.close();
        } else {
            // Raw bytes from here, behind the HTTP codec, whose decoder is mid-request.
            ctx.writeAndFlush(Unpooled.wrappedBuffer(REQUEST_TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            if (connection.activeExchanges() == 0) {
                counters.add(HttpCounters.Event.CLOSED_IDLE);
                ctx.close();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            if (slowReaderClose != null) {
                slowReaderClose.cancel(false);
                slowReaderClose = null;
            }
        } else if (slowReaderClose == null) {
            slowReaderClose = ctx.executor().schedule(this::closeSlowReader, slowReaderTimeoutNs, TimeUnit.NANOSECONDS);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void closeSlowReader() {
        slowReaderClose = null;
        if (!ctx.channel().isWritable() && ctx.channel().isActive()) {
            counters.add(HttpCounters.Event.CLOSED_SLOW_READER);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimers();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimers();
        if (connection.guard() == this) {
            connection.guard(null);
        }
    }

    private void cancelTimers() {
        if (requestCheck != null) {
            requestCheck.cancel(false);
            requestCheck = null;
        }
        if (slowReaderClose != null) {
            slowReaderClose.cancel(false);
            slowReaderClose = null;
        }
    }
}
