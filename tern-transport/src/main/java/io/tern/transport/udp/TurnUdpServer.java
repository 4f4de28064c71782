package io.tern.transport.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.tern.transport.netty.NettyTransports;
import io.tern.turn.engine.TurnEngine;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * TURN over UDP: one {@link RelayShard} per relay thread, each with its own listening socket on
 * the same port (SO_REUSEPORT), so the kernel spreads clients across threads and an allocation's
 * packets stay on the thread that owns it.
 */
public final class TurnUdpServer implements AutoCloseable {
    private final EventLoopGroup group;
    private final List<RelayShard> shards;
    private final List<InetSocketAddress> boundAddresses;

    private TurnUdpServer(EventLoopGroup group, List<RelayShard> shards, List<InetSocketAddress> boundAddresses) {
        this.group = group;
        this.shards = shards;
        this.boundAddresses = boundAddresses;
    }

    public static TurnUdpServer start(UdpServerSettings settings) throws InterruptedException {
        int threads = NettyTransports.epoll() ? Math.max(1, settings.relayThreads()) : 1;
        EventLoopGroup group = NettyTransports.newGroup(threads, "tern-relay");
        List<RelayShard> shards = new ArrayList<>();
        List<InetSocketAddress> bound = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                EventLoop loop = group.next();
                RelayShard shard = loop.submit(() -> new RelayShard(loop, settings)).sync().getNow();
                shards.add(shard);
                for (int listenerId = 0; listenerId < settings.listenAddresses().size(); listenerId++) {
                    InetSocketAddress requested = settings.listenAddresses().get(listenerId);
                    // Every shard binds the port the first one got, so port 0 works in tests too.
                    InetSocketAddress address = t == 0 ? requested : bound.get(listenerId);
                    int id = listenerId;
                    Bootstrap bootstrap = new Bootstrap().group(loop).channel(NettyTransports.datagramChannel())
                            .handler(new ChannelInitializer<DatagramChannel>() {
                                @Override
                                protected void initChannel(DatagramChannel ch) {
                                    shard.addListener(ch, id);
                                }
                            });
                    if (NettyTransports.epoll()) {
                        bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
                    }
                    ChannelFuture future = bootstrap.bind(address).sync();
                    if (t == 0) {
                        bound.add((InetSocketAddress) future.channel().localAddress());
                    }
                }
                long periodNs = settings.timerPeriodNs();
                loop.scheduleAtFixedRate(shard::onTimer, periodNs, periodNs, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new TurnUdpServer(group, shards, List.copyOf(bound));
    }

    /** The addresses actually bound, in listener-id order (useful when port 0 was asked for). */
    public List<InetSocketAddress> boundAddresses() {
        return boundAddresses;
    }

    /** The engines, one per relay thread; read their counters, never drive them from here. */
    public List<TurnEngine> engines() {
        List<TurnEngine> engines = new ArrayList<>();
        for (RelayShard shard : shards) {
            engines.add(shard.engine());
        }
        return engines;
    }

    public int relayThreads() {
        return shards.size();
    }

    /** Deletes every allocation, closes every socket and stops the threads. */
    @Override
    public void close() {
        for (RelayShard shard : shards) {
            try {
                shard.loop().submit((Runnable) shard::close).sync();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
