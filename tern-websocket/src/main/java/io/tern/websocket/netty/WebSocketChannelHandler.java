package io.tern.websocket.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.engine.WebSocketEngine;
import io.tern.websocket.engine.WebSocketSink;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * Thin adapter between a Netty channel and a {@link WebSocketEngine}: bytes in, bytes out, timers on
 * the event loop. Outbound bytes produced while handling one read batch are gathered into one buffer
 * and flushed once. Sends are bounded: the peer must keep reading or the connection is closed.
 */
public final class WebSocketChannelHandler extends ChannelInboundHandlerAdapter implements WebSocketSink {
    /** Engines consume their input fully per call, so one copy buffer per event-loop thread suffices. */
    private static final FastThreadLocal<byte[]> READ_SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[64 * 1024];
        }
    };

    /** Within a read batch, output is held for one flush, but never more than this. */
    private static final int MAX_HELD_BYTES = 64 * 1024;

    private final WebSocketEngine engine;
    private final WebSocketListener listener;
    private final BackpressureConfig backpressure;
    private final WebSocketConnection connection = new WebSocketConnection(this);
    private ChannelHandlerContext ctx;
    private ByteBuf pending;
    private boolean inRead;
    /** How long a closing connection waits for the peer's FIN before closing anyway. */
    private static final long LINGER_MS = 2000;

    private boolean transportClosing;
    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;
    private ScheduledFuture<?> slowReaderCheck;

    private WebSocketChannelHandler(
            WebSocketConfig config,
            BackpressureConfig backpressure,
            WebSocketListener listener,
            boolean server,
            RandomGenerator random,
            String host,
            String target) {
        this.listener = listener;
        this.backpressure = backpressure;
        this.engine = server
                ? WebSocketEngine.server(config, this)
                : WebSocketEngine.client(config, this, random, host, target);
    }

    public static WebSocketChannelHandler server(
            WebSocketConfig config, BackpressureConfig backpressure, WebSocketListener listener) {
        return new WebSocketChannelHandler(config, backpressure, listener, true, null, null, null);
    }

    public static WebSocketChannelHandler client(
            WebSocketConfig config,
            BackpressureConfig backpressure,
            WebSocketListener listener,
            RandomGenerator random,
            String host,
            String target) {
        return new WebSocketChannelHandler(config, backpressure, listener, false, random, host, target);
    }

    WebSocketEngine engine() {
        return engine;
    }

    Channel channel() {
        return ctx.channel();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        engine.start(System.nanoTime());
        afterEngineCall();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (transportClosing) {
            in.release();
            return;
        }
        inRead = true;
        try {
            long nowNs = System.nanoTime();
            if (in.hasArray()) {
                engine.onBytes(in.array(), in.arrayOffset() + in.readerIndex(), in.readableBytes(), nowNs);
            } else {
                byte[] scratch = READ_SCRATCH.get();
                int index = in.readerIndex();
                int remaining = in.readableBytes();
                while (remaining > 0 && engine.state() != WebSocketEngine.State.CLOSED) {
                    int chunk = Math.min(remaining, scratch.length);
                    in.getBytes(index, scratch, 0, chunk);
                    engine.onBytes(scratch, 0, chunk, nowNs);
                    index += chunk;
                    remaining -= chunk;
                }
            }
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        afterEngineCall();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        engine.onTransportClosed();
        cancelTimers();
        if (pending != null) {
            pending.release();
            pending = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        if (channel.isWritable()) {
            channel.config().setAutoRead(true);
            if (slowReaderCheck != null) {
                slowReaderCheck.cancel(false);
                slowReaderCheck = null;
            }
        } else {
            // Stop reading from a peer that does not read: its requests would only queue more replies.
            channel.config().setAutoRead(false);
            if (slowReaderCheck == null) {
                slowReaderCheck = ctx.executor()
                        .schedule(
                                this::closeIfStillUnwritable, backpressure.slowReaderTimeoutNs(), TimeUnit.NANOSECONDS);
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void closeIfStillUnwritable() {
        slowReaderCheck = null;
        if (!ctx.channel().isWritable()) {
            abort();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        abort();
    }

    boolean send(boolean text, byte[] buf, int offset, int length) {
        if (transportClosing || !engine.sendMessage(text, buf, offset, length)) {
            return false;
        }
        afterEngineCall();
        return !transportClosing;
    }

    void close(int code, String reason) {
        engine.close(code, reason, System.nanoTime());
        afterEngineCall();
    }

    // ---------------------------------------------------------------- WebSocketSink

    @Override
    public void transmit(byte[] buf, int offset, int length) {
        if (transportClosing) {
            return;
        }
        if (pending == null) {
            pending = ctx.alloc().ioBuffer(Math.max(length, 256));
        }
        pending.writeBytes(buf, offset, length);
    }

    @Override
    public void onOpen(WebSocketEngine engine) {
        listener.onOpen(connection);
    }

    @Override
    public void onMessage(WebSocketEngine engine, boolean text, byte[] buf, int offset, int length) {
        listener.onMessage(connection, text, buf, offset, length);
    }

    @Override
    public void onClose(WebSocketEngine engine, int code, String reason) {
        listener.onClose(connection, code, reason);
    }

    @Override
    public void closeTransport() {
        if (transportClosing) {
            return;
        }
        flushPending();
        transportClosing = true;
        cancelTimers();
        // Half-close and let the peer close: closing a socket with unread input makes the kernel send
        // a RST, which can destroy what the peer has not read yet (an echo sent just before a protocol
        // error). Input is discarded meanwhile, and the wait is bounded.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> {
            if (ctx.channel() instanceof DuplexChannel duplex && duplex.isActive() && written.isSuccess()) {
                duplex.shutdownOutput();
                ctx.executor()
                        .schedule(
                                () -> {
                                    ctx.close();
                                },
                                LINGER_MS,
                                TimeUnit.MILLISECONDS);
            } else {
                ctx.close();
            }
        });
    }

    // ---------------------------------------------------------------- internals

    /** After any engine call: flush unless a read batch is still running, enforce the send bound, re-arm timers. */
    private void afterEngineCall() {
        if (!inRead || (pending != null && pending.readableBytes() >= MAX_HELD_BYTES)) {
            flushPending();
        }
        if (transportClosing) {
            return;
        }
        ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        if (outbound != null && outbound.totalPendingWriteBytes() > backpressure.maxPendingWriteBytes()) {
            abort();
            return;
        }
        rearmTimer();
    }

    private void flushPending() {
        if (pending != null) {
            ByteBuf out = pending;
            pending = null;
            ctx.writeAndFlush(out, ctx.voidPromise());
        }
    }

    private void rearmTimer() {
        long deadlineNs = engine.nextDeadlineNs();
        if (deadlineNs == timerDeadlineNs) {
            return;
        }
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        timerDeadlineNs = deadlineNs;
        if (deadlineNs != Long.MAX_VALUE) {
            long delayNs = Math.max(0, deadlineNs - System.nanoTime());
            timer = ctx.executor().schedule(this::onTimer, delayNs, TimeUnit.NANOSECONDS);
        }
    }

    private void onTimer() {
        timer = null;
        timerDeadlineNs = Long.MAX_VALUE;
        engine.onTimeout(System.nanoTime());
        afterEngineCall();
    }

    private void cancelTimers() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        if (slowReaderCheck != null) {
            slowReaderCheck.cancel(false);
            slowReaderCheck = null;
        }
    }

    /** Drops the connection without a close handshake: the peer cannot be reached in time. */
    private void abort() {
        transportClosing = true;
        cancelTimers();
        if (pending != null) {
            pending.release();
            pending = null;
        }
        ctx.close();
    }
}
