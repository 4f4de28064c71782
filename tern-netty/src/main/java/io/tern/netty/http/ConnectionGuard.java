package io.tern.netty.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A connection's timeouts, in front of the HTTP codecs (behind TLS), all from one timer:
 *
 * <ul>
 *   <li><b>slow requests</b> (slow-loris): the first byte of a request starts a clock that a
 *       complete request (HTTP/1.1) or a complete frame (HTTP/2) stops; past the request timeout
 *       the connection gets 408 (HTTP/1.1) and is closed;
 *   <li><b>idle</b>: a connection that reads nothing, flushes nothing and whose pending output makes
 *       no progress for the idle timeout is closed, only when no request is being handled, held or
 *       streamed on it;
 *   <li><b>slow readers</b>: a write buffer that stays full past the slow-reader timeout closes it.
 * </ul>
 *
 * <p>The clocks are fields. The one timer is always armed while the connection is open, at its
 * earliest deadline but never further ahead than the shortest timeout, {@link Settings#checkPeriodNs}: so a
 * clock started later (a request's first byte, a full write buffer) always ends after the armed
 * check, and is never a reason to cancel and schedule again. An idle connection costs one timer
 * run per {@link Settings#checkPeriodNs} (10 s by default); a busy one schedules no more than that.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
    private static final byte[] REQUEST_TIMEOUT =
            "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

    /** What every connection's guard shares: kept once, not in each guard (thousands of them). */
    record Settings(
            HttpCounters counters,
            long idleTimeoutNs,
            long requestTimeoutNs,
            long slowReaderTimeoutNs,
            long checkPeriodNs) {
        Settings(HttpCounters counters, HttpLimits limits) {
            this(
                    counters,
                    TimeUnit.MILLISECONDS.toNanos(limits.idleTimeoutMs()),
                    TimeUnit.MILLISECONDS.toNanos(limits.requestTimeoutMs()),
                    TimeUnit.MILLISECONDS.toNanos(limits.slowReaderTimeoutMs()),
                    TimeUnit.MILLISECONDS.toNanos(Math.min(
                            limits.idleTimeoutMs(),
                            Math.min(limits.requestTimeoutMs(), limits.slowReaderTimeoutMs()))));
        }
    }

    private final Settings settings;
    private final HttpConnection connection;

    private ChannelHandlerContext ctx;
    /** The last read, flush or progress of pending output. */
    private long lastActivityNs;
    /** Bytes were read since the last {@code channelReadComplete}. */
    private boolean reading;
    /** Pending output bytes at the last check, to see whether a slow write progresses. */
    private long lastPendingBytes;
    /** When the request now incomplete sent its first byte; -1 when none is. */
    private long requestStartNs = -1;
    /** Since when the write buffer is full; -1 while writable. */
    private long unwritableSinceNs = -1;

    private ScheduledFuture<?> check;

    ConnectionGuard(Settings settings, HttpConnection connection) {
        this.settings = settings;
        this.connection = connection;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        connection.guard(this);
        lastActivityNs = nowNs();
        if (ctx.channel().isActive()) {
            arm(lastActivityNs);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        arm(nowNs());
        ctx.fireChannelActive();
    }

    private long nowNs() {
        return ctx.executor().ticker().nanoTime();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = true;
        if (requestStartNs < 0 && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            requestStartNs = nowNs();
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reading) {
            reading = false;
            lastActivityNs = nowNs();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        lastActivityNs = nowNs();
        ctx.flush();
    }

    /** A request (HTTP/1.1) or a frame (HTTP/2) is complete: the slow-request clock stops. */
    void progress() {
        requestStartNs = -1;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            unwritableSinceNs = -1;
        } else if (unwritableSinceNs < 0) {
            unwritableSinceNs = nowNs();
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void arm(long nowNs) {
        if (check != null) {
            return;
        }
        long deadlineNs = nowNs + settings.checkPeriodNs();
        if (connection.activeExchanges() == 0 && lastActivityNs + settings.idleTimeoutNs() > nowNs) {
            deadlineNs = Math.min(deadlineNs, lastActivityNs + settings.idleTimeoutNs());
        }
        if (requestStartNs >= 0) {
            deadlineNs = Math.min(deadlineNs, requestStartNs + settings.requestTimeoutNs());
        }
        if (unwritableSinceNs >= 0) {
            deadlineNs = Math.min(deadlineNs, unwritableSinceNs + settings.slowReaderTimeoutNs());
        }
        check = ctx.executor().schedule(this::check, deadlineNs - nowNs, TimeUnit.NANOSECONDS);
    }

    private void check() {
        check = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long nowNs = nowNs();
        if (requestStartNs >= 0 && nowNs - requestStartNs >= settings.requestTimeoutNs()) {
            closeSlowRequest();
            return;
        }
        if (unwritableSinceNs >= 0 && nowNs - unwritableSinceNs >= settings.slowReaderTimeoutNs()) {
            settings.counters().add(HttpCounters.Event.CLOSED_SLOW_READER);
            ctx.close();
            return;
        }
        ChannelOutboundBuffer output = ctx.channel().unsafe().outboundBuffer();
        long pendingBytes = output == null ? 0 : output.totalPendingWriteBytes();
        if (pendingBytes != lastPendingBytes) {
            lastPendingBytes = pendingBytes;
            lastActivityNs = nowNs;
        }
        if (connection.activeExchanges() == 0 && nowNs - lastActivityNs >= settings.idleTimeoutNs()) {
            settings.counters().add(HttpCounters.Event.CLOSED_IDLE);
            ctx.close();
            return;
        }
        arm(nowNs);
    }

    private void closeSlowRequest() {
        settings.counters().add(HttpCounters.Event.CLOSED_SLOW_REQUEST);
        if (connection.http2()) {
            ctx.close();
        } else {
            // Raw bytes from here, behind the HTTP codec, whose decoder is mid-request.
            ctx.writeAndFlush(Unpooled.wrappedBuffer(REQUEST_TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelCheck();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelCheck();
        if (connection.guard() == this) {
            connection.guard(null);
        }
    }

    private void cancelCheck() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }
}
