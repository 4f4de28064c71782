package io.tern.websocket.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.URI;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Opens client connections (ws:// only) on a shared event-loop group. */
public final class NettyWebSocketClient implements AutoCloseable {
    private final EventLoopGroup group;
    private final WebSocketConfig config;
    private final BackpressureConfig backpressure;

    public NettyWebSocketClient(int threads, WebSocketConfig config, BackpressureConfig backpressure) {
        this.group = Transports.newGroup(threads);
        this.config = config;
        this.backpressure = backpressure;
    }

    /**
     * Connects and performs the opening handshake; the future completes once the connection is open,
     * or exceptionally if the TCP connect or the handshake fails.
     */
    public CompletableFuture<WebSocketConnection> connect(URI uri, WebSocketListener listener) {
        if (!"ws".equals(uri.getScheme())) {
            throw new IllegalArgumentException("only ws:// is supported: " + uri);
        }
        int port = uri.getPort() > 0 ? uri.getPort() : 80;
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String host = uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
        CompletableFuture<WebSocketConnection> opened = new CompletableFuture<>();
        WebSocketListener completing = new WebSocketListener() {
            @Override
            public void onOpen(WebSocketConnection connection) {
                opened.complete(connection);
                listener.onOpen(connection);
            }

            @Override
            public void onMessage(WebSocketConnection connection, boolean text, byte[] buf, int offset, int length) {
                listener.onMessage(connection, text, buf, offset, length);
            }

            @Override
            public void onClose(WebSocketConnection connection, int code, String reason) {
                opened.completeExceptionally(new IllegalStateException("closed before open: " + code + " " + reason));
                listener.onClose(connection, code, reason);
            }
        };
        new Bootstrap()
                .group(group)
                .channel(Transports.channel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(backpressure.lowWaterMarkBytes(), backpressure.highWaterMarkBytes()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(WebSocketChannelHandler.client(
                                        config, backpressure, completing, new SecureRandom(), host, target));
                    }
                })
                .connect(uri.getHost(), port)
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        opened.completeExceptionally(f.cause());
                    }
                });
        return opened;
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
