package io.tern.netty.websocket;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.URI;
import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Opens client connections (ws:// only) on an event-loop group of its own. */
public final class WebSocketClient implements AutoCloseable {
    private final EventLoopGroup group;
    private final WebSocketConfig config;

    public WebSocketClient(int threads, WebSocketConfig config) {
        this.group = NettyTransports.newGroup(threads, "tern-ws-client");
        this.config = config;
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
        WebSocketConnection connection = WebSocketConnection.client(config, listener, new SecureRandom(), host, target);
        CompletableFuture<WebSocketConnection> opened = connection.clientOpened();
        new Bootstrap()
                .group(group)
                .channel(NettyTransports.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new WebSocketHandler(connection, null));
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
