package io.tern.websocket.netty;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.tern.websocket.engine.WebSocketConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** A listening WebSocket server; each accepted connection gets its own engine and listener. */
public final class NettyWebSocketServer implements AutoCloseable {
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    private NettyWebSocketServer(EventLoopGroup bossGroup, EventLoopGroup workerGroup, Channel serverChannel) {
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
    public static NettyWebSocketServer start(
            InetSocketAddress address,
            int workerThreads,
            WebSocketConfig config,
            BackpressureConfig backpressure,
            Supplier<? extends WebSocketListener> listeners)
            throws InterruptedException {
        EventLoopGroup boss = Transports.newGroup(1);
        EventLoopGroup workers = Transports.newGroup(workerThreads);
        try {
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(Transports.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(
                            ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(
                                    backpressure.lowWaterMarkBytes(), backpressure.highWaterMarkBytes()))
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(WebSocketChannelHandler.server(config, backpressure, listeners.get()));
                        }
                    })
                    .bind(address)
                    .sync()
                    .channel();
            return new NettyWebSocketServer(boss, workers, channel);
        } catch (InterruptedException | RuntimeException e) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
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
