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

    private WebSocketServer(EventLoopGroup bossGroup, EventLoopGroup workerGroup, Channel serverChannel) {
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.serverChannel = serverChannel;
    }

    /**
     * Binds and starts accepting.
     *
     * @param address where to listen; port 0 picks a free port, see {@link #port()}
     * @param workerThreads event-loop threads; 0 lets Netty choose (twice the cores)
     */
    public static WebSocketServer start(InetSocketAddress address, int workerThreads, WebSocketEndpoint endpoint)
            throws InterruptedException {
        EventLoopGroup boss = NettyTransports.newGroup(1, "tern-ws-accept");
        EventLoopGroup workers = NettyTransports.newGroup(workerThreads, "tern-ws");
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
            return new WebSocketServer(boss, workers, channel);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
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
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
