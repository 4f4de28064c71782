package io.tern.netty.websocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.DuplexChannel;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
import io.tern.websocket.deflate.DeflateParameters;
import io.tern.websocket.engine.BackpressureConfig;
import io.tern.websocket.engine.WebSocketConfig;
import io.tern.websocket.engine.WebSocketEngine;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One WebSocket connection over a Netty channel: the thin adapter between the channel and a
 * {@link WebSocketEngine}, and what the application holds. Call its methods on the connection's
 * event loop only ({@link #eventLoop()}).
 *
 * <p>The adapter does I/O only. After every input (a read, a timer, a drained socket, a send) it
 * drains the engine's events to the {@link WebSocketListener}, writes what the engine framed, and
 * applies the engine's transport action; its {@link EngineLoop} arms the timer for the engine's
 * deadline on the loop's {@link LoopClock}. Received bytes are handed to the engine in
 * the socket buffer's own memory (the engine copies each message once, into the message the
 * listener sees); frames are written by the engine straight into pooled socket buffers, and every
 * frame of one read batch leaves in one flush of the {@link EventLoopFlush}.
 */
public final class WebSocketConnection {
    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final WebSocketConfig config;
    private final WebSocketEngine engine;
    private final SocketTransmit transmit = new SocketTransmit();
    private final UnsafeBuffer input = new UnsafeBuffer(0, 0);
    private final CompletableFuture<WebSocketConnection> clientOpened;
    private WebSocketListener listener;
    private WebSocketRequest request;
    private Channel channel;
    private EventLoopFlush flush;
    private EventLoopFlush.Slot flushSlot;

    /** Nesting of inputs: only the outermost one drains and writes, so a send from a listener is batched. */
    private int depth;

    private boolean listenerOpen;
    private boolean outputShutDown;
    private boolean closing;
    private EngineLoop engineLoop;

    private WebSocketConnection(
            WebSocketConfig config, WebSocketEngine.Role role, RandomGenerator random, String host, String target) {
        this.config = config;
        this.engine = role == WebSocketEngine.Role.SERVER
                ? WebSocketEngine.server(config, transmit)
                : WebSocketEngine.client(config, transmit, random, host, target);
        this.clientOpened = role == WebSocketEngine.Role.CLIENT ? new CompletableFuture<>() : null;
    }

    static WebSocketConnection server(WebSocketConfig config) {
        return new WebSocketConnection(config, WebSocketEngine.Role.SERVER, null, null, null);
    }

    static WebSocketConnection client(
            WebSocketConfig config, WebSocketListener listener, RandomGenerator random, String host, String target) {
        WebSocketConnection connection =
                new WebSocketConnection(config, WebSocketEngine.Role.CLIENT, random, host, target);
        connection.listener = listener;
        return connection;
    }

    // ---------------------------------------------------------------- the application's side

    /** Unique in this process, for tables keyed by connection. */
    public long id() {
        return id;
    }

    /** The opening request, or null for a client connection. */
    public WebSocketRequest request() {
        return request;
    }

    /** Where the peer connects from, or null on a transport without addresses. */
    public InetSocketAddress remoteAddress() {
        return channel.remoteAddress() instanceof InetSocketAddress remote ? remote : null;
    }

    public EventLoop eventLoop() {
        return channel.eventLoop();
    }

    public boolean isOpen() {
        return engine.state() == WebSocketEngine.State.OPEN;
    }

    /** False while what is queued for the peer is above the high water mark. */
    public boolean isWritable() {
        return engine.writable();
    }

    /** Bytes queued for the peer and not yet taken by the kernel. */
    public long queuedBytes() {
        ChannelOutboundBuffer queue = channel.unsafe().outboundBuffer();
        return (queue == null ? 0 : queue.totalPendingWriteBytes()) + transmit.batchBytes();
    }

    /** The negotiated subprotocol, or null. */
    public String subprotocol() {
        return engine.subprotocol();
    }

    /** The negotiated permessage-deflate parameters, or null when messages are not compressed. */
    public DeflateParameters deflateParameters() {
        return engine.deflateParameters();
    }

    /**
     * Queues a message (text must be valid UTF-8). Returns false when the connection is not open,
     * or was closed because its queue passed the hard cap.
     */
    public boolean send(boolean text, byte[] buf, int offset, int length) {
        requireEventLoop();
        depth++;
        try {
            if (!engine.sendMessage(text, buf, offset, length)) {
                return false;
            }
            reportBacklog();
            return engine.state() != WebSocketEngine.State.CLOSED;
        } finally {
            exit();
        }
    }

    /**
     * Queues a message made of {@code prefix}, the readable bytes of {@code body} and
     * {@code suffix}, without copying a direct {@code body}: it goes to the socket as a retained
     * slice, so one buffer can be sent to many connections (a broadcast). The caller keeps its
     * reference to {@code body}; the prefix and suffix are copied in with the frame header. When
     * the message must be compressed or fragmented, the three are copied into one message first.
     * Returns what {@link #send(boolean, byte[], int, int)} returns.
     */
    public boolean send(boolean text, byte[] prefix, ByteBuf body, byte[] suffix) {
        requireEventLoop();
        depth++;
        try {
            if (engine.state() != WebSocketEngine.State.OPEN) {
                return false;
            }
            int length = prefix.length + body.readableBytes() + suffix.length;
            if (engine.sendHeader(text, length)) {
                transmit.put(prefix);
                transmit.put(body);
                transmit.put(suffix);
            } else {
                byte[] whole = new byte[length];
                System.arraycopy(prefix, 0, whole, 0, prefix.length);
                body.getBytes(body.readerIndex(), whole, prefix.length, body.readableBytes());
                System.arraycopy(suffix, 0, whole, length - suffix.length, suffix.length);
                if (!engine.sendMessage(text, whole, 0, length)) {
                    return false;
                }
            }
            reportBacklog();
            return engine.state() != WebSocketEngine.State.CLOSED;
        } finally {
            exit();
        }
    }

    public boolean sendText(CharSequence text) {
        byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
        return send(true, utf8, 0, utf8.length);
    }

    public boolean sendBinary(byte[] buf, int offset, int length) {
        return send(false, buf, offset, length);
    }

    /** Sends a Ping of at most 125 bytes; the answer comes to {@link WebSocketListener#onPong}. */
    public boolean ping(byte[] buf, int offset, int length) {
        requireEventLoop();
        depth++;
        try {
            return engine.sendPing(buf, offset, length);
        } finally {
            exit();
        }
    }

    /** Starts the closing handshake; {@link WebSocketListener#onClose} follows. */
    public void close(int code, String reason) {
        requireEventLoop();
        depth++;
        try {
            engine.close(code, reason, nowNs());
        } finally {
            exit();
        }
    }

    private void requireEventLoop() {
        if (!channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("use a WebSocketConnection on its event loop only");
        }
    }

    // ---------------------------------------------------------------- the channel's side

    CompletableFuture<WebSocketConnection> clientOpened() {
        return clientOpened;
    }

    WebSocketEngine.State state() {
        return engine.state();
    }

    /** Binds the connection to its channel; on the channel's loop. */
    void attach(Channel channel) {
        this.channel = channel;
        this.flush = EventLoopFlush.of(channel.eventLoop());
        this.flushSlot = new EventLoopFlush.Slot(channel);
        this.engineLoop = new EngineLoop(LoopClock.of(channel.eventLoop()), new EngineLoop.Driver() {
            @Override
            public long drainOutputs() {
                return drainEngine();
            }

            @Override
            public void onTimeout(long nowNs) {
                timeout(nowNs);
            }
        });
        transmit.attach(channel, flush, flushSlot);
        BackpressureConfig limits = config.backpressure();
        channel.config()
                .setWriteBufferWaterMark(
                        new WriteBufferWaterMark(limits.lowWaterMarkBytes(), limits.highWaterMarkBytes()));
    }

    /** Starts the handshake clock; a client sends its request. */
    void start() {
        depth++;
        try {
            engine.start(nowNs());
        } finally {
            exit();
        }
    }

    /**
     * Server side: answers a decoded upgrade request. Returns the HTTP status of a refusal (the
     * caller answers it through the HTTP codec, which is still in place) or 101, in which case the
     * caller removes the codec and then calls {@link #opened()}.
     */
    int accept(WebSocketRequest request, WebSocketListener listener) {
        this.request = request;
        this.listener = listener;
        depth++;
        try {
            return engine.acceptUpgrade(request, nowNs());
        } finally {
            closing = engine.state() == WebSocketEngine.State.CLOSED;
            depth--;
        }
    }

    /** After {@link #accept} returned 101 and the HTTP codec is gone: tells the listener, writes the 101. */
    void opened() {
        depth++;
        try {
            dispatchEvents();
        } finally {
            exit();
        }
    }

    /** Received bytes; releases them. */
    void onInput(ByteBuf in) {
        depth++;
        try {
            if (engine.state() == WebSocketEngine.State.CLOSED) {
                return;
            }
            if (!in.hasMemoryAddress() && !in.hasArray()) {
                ByteBuf direct = channel.alloc().directBuffer(in.readableBytes());
                direct.writeBytes(in);
                in.release();
                in = direct;
            }
            int length = in.readableBytes();
            if (in.hasMemoryAddress()) {
                input.wrap(in.memoryAddress() + in.readerIndex(), length);
            } else {
                input.wrap(in.array(), in.arrayOffset() + in.readerIndex(), length);
            }
            long nowNs = nowNs();
            for (int index = 0; index < length && engine.state() != WebSocketEngine.State.CLOSED; ) {
                index += engine.onBytes(input, index, length - index, nowNs);
                dispatchEvents();
            }
        } finally {
            input.wrap(0, 0);
            in.release();
            exit();
        }
    }

    void onWritabilityChanged() {
        depth++;
        try {
            reportBacklog();
        } finally {
            exit();
        }
    }

    void onChannelClosed() {
        depth++;
        try {
            closing = true;
            engine.onTransportClosed(nowNs());
            transmit.release();
            cancelTimer();
        } finally {
            exit();
        }
    }

    /** Ends an input: the outermost one drains every event, writes, and leaves only a deadline. */
    private void exit() {
        if (--depth > 0) {
            return;
        }
        engineLoop.drain();
    }

    /** Hands out the engine's events, writes its frames, applies its transport action; returns its deadline. */
    private long drainEngine() {
        depth++;
        try {
            do {
                dispatchEvents();
                transmit.writeBatch(closing);
                reportBacklog();
            } while (engine.hasEvent());
            applyTransportAction();
            if (closing) {
                return Long.MAX_VALUE;
            }
            channel.config().setAutoRead(engine.writable() || engine.state() == WebSocketEngine.State.CLOSED);
            return engine.nextDeadlineNs();
        } finally {
            depth--;
        }
    }

    private void timeout(long nowNs) {
        depth++;
        try {
            engine.onTimeout(nowNs);
        } finally {
            depth--;
        }
    }

    private void dispatchEvents() {
        for (WebSocketEngine.Event event = engine.poll(); event != WebSocketEngine.Event.NONE; event = engine.poll()) {
            switch (event) {
                case OPENED -> {
                    listenerOpen = true;
                    if (clientOpened != null) {
                        clientOpened.complete(this);
                    }
                    listener.onOpen(this);
                }
                case MESSAGE ->
                    listener.onMessage(this, engine.messageText(), engine.messageArray(), 0, engine.messageLength());
                case PONG -> listener.onPong(this, engine.pongArray(), 0, engine.pongLength());
                case WRITABILITY_CHANGED -> listener.onWritabilityChanged(this, engine.writable());
                case CLOSED -> {
                    if (listenerOpen) {
                        listener.onClose(this, engine.closeCode(), engine.closeReason());
                    } else if (clientOpened != null) {
                        clientOpened.completeExceptionally(new IllegalStateException(
                                "closed before open: " + engine.closeCode() + " " + engine.closeReason()));
                    }
                }
                default -> throw new IllegalStateException(event.toString());
            }
        }
    }

    /** Tells the engine what is queued; a channel over its high water mark is flushed first. */
    private void reportBacklog() {
        if (closing || engine.state() == WebSocketEngine.State.CLOSED) {
            return;
        }
        if (!channel.isWritable()) {
            flush.writable(flushSlot);
        }
        engine.onTransportBacklog(queuedBytes(), nowNs());
    }

    private void applyTransportAction() {
        switch (engine.transportAction()) {
            case KEEP_OPEN -> {}
            case SHUT_DOWN_OUTPUT -> {
                if (!outputShutDown && !closing) {
                    outputShutDown = true;
                    // Shutting down fails writes still queued, so wait for them; the engine's linger bounds the wait.
                    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> {
                        if (written.isSuccess() && channel instanceof DuplexChannel duplex && duplex.isActive()) {
                            duplex.shutdownOutput();
                        } else {
                            channel.close();
                        }
                    });
                }
            }
            case CLOSE -> {
                if (!closing) {
                    closing = true;
                    cancelTimer();
                    channel.close();
                }
            }
        }
    }

    private long nowNs() {
        return engineLoop.nowNs();
    }

    private void cancelTimer() {
        engineLoop.close();
    }
}
