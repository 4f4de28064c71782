package io.tern.netty.rtmp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts RTMP publishers on one TCP port and runs one {@link io.tern.rtmp.session.RtmpServerSession}
 * per connection on the connection's event loop ({@link RtmpServerConnection}). Writes are flushed
 * once per event-loop turn, through the loop's {@link EventLoopFlush}.
 */
public final class RtmpListener implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");

    private final Channel server;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong nextConnectionId = new AtomicLong(1);

    private RtmpListener(
            EventLoopGroup group, InetSocketAddress bind, RtmpListenerSettings settings, RtmpIngestHandler handler)
            throws InterruptedException {
        this.server = new ServerBootstrap()
                .group(group)
                .channel(NettyTransports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(settings.writeLowWaterMarkBytes(), settings.writeHighWaterMarkBytes()))
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (open.incrementAndGet() > settings.maxConnections()) {
                            open.decrementAndGet();
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "RTMP " + ch.remoteAddress() + " refused: " + settings.maxConnections()
                                            + " connections are open");
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> open.decrementAndGet());
                        ch.pipeline()
                                .addLast(new RtmpServerConnection(
                                        nextConnectionId.getAndIncrement(),
                                        settings,
                                        handler,
                                        EventLoopFlush.of(ch.eventLoop())));
                    }
                })
                .bind(bind)
                .sync()
                .channel();
    }

    /**
     * Binds {@code bind} (port 0 picks a free one) and serves publishers on {@code group}'s loops.
     * The group belongs to the caller, who shuts it down.
     */
    public static RtmpListener start(
            EventLoopGroup group, InetSocketAddress bind, RtmpListenerSettings settings, RtmpIngestHandler handler)
            throws InterruptedException {
        RtmpListener listener = new RtmpListener(group, bind, settings, handler);
        LOG.log(System.Logger.Level.INFO, "RTMP listening on " + listener.localAddress());
        return listener;
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) server.localAddress();
    }

    /** Connections open now. */
    public int connections() {
        return open.get();
    }

    /** Stops accepting; open connections stay until they end or their group shuts down. */
    @Override
    public void close() {
        server.close().syncUninterruptibly();
    }
}
