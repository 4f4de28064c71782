package io.tern.netty.websocket;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** A {@link WebSocketEndpoint} listening on a port of its own. */
public final class WebSocketServer implements AutoCloseable {
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;
    private final boolean ownsWorkers;

    private WebSocketServer(
            EventLoopGroup bossGroup, EventLoopGroup workerGroup, Channel serverChannel, boolean ownsWorkers) {
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.serverChannel = serverChannel;
        this.ownsWorkers = ownsWorkers;
    }

    /**
     * Binds and starts accepting.
     *
     * @param address where to listen; port 0 picks a free port, see {@link #port()}
     * @param workerThreads event-loop threads; 0 lets Netty choose (twice the cores)
     */
    public static WebSocketServer start(InetSocketAddress address, int workerThreads, WebSocketEndpoint endpoint)
            throws InterruptedException {
        return start(address, NettyTransports.newGroup(workerThreads, "tern-ws"), true, endpoint);
    }

    /**
     * Binds and starts accepting, with connections on {@code workers}, which the caller owns (an
     * application that runs its own work on those loops): {@link #close()} closes the listener only.
     */
    public static WebSocketServer start(InetSocketAddress address, EventLoopGroup workers, WebSocketEndpoint endpoint)
            throws InterruptedException {
        return start(address, workers, false, endpoint);
    }

    private static WebSocketServer start(
            InetSocketAddress address, EventLoopGroup workers, boolean ownsWorkers, WebSocketEndpoint endpoint)
            throws InterruptedException {
        EventLoopGroup boss = NettyTransports.newGroup(1, "tern-ws-accept");
        try {
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NettyTransports.serverSocketChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            endpoint.initChannel(ch);
                        }
                    })
                    .bind(address)
                    .sync()
                    .channel();
            return new WebSocketServer(boss, workers, channel, ownsWorkers);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            if (ownsWorkers) {
                workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            }
            throw e;
        }
    }

    public int port() {
        return localAddress().getPort();
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        if (ownsWorkers) {
            workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
