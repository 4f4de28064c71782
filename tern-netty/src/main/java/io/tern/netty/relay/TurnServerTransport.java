package io.tern.netty.relay;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.tern.netty.NettyTransports;
import io.tern.netty.stream.ConnectionLimiter;
import io.tern.netty.stream.QueuedMessageSize;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamSettings;
import io.tern.netty.stream.TlsContextSource;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnEngine;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * TURN over UDP, TCP and TLS: one {@link RelayShard} per relay thread, each with its own listening
 * sockets on the same ports (SO_REUSEPORT), so the kernel spreads clients and connections across
 * threads, and a client's allocation, its connection and its relay sockets stay on the thread that
 * owns them. Peers are always reached over UDP.
 */
public final class TurnServerTransport implements AutoCloseable {
    private static final int ACCEPT_BACKLOG = 1024;

    private final EventLoopGroup group;
    private final List<RelayShard> shards;
    private final List<InetSocketAddress> udpAddresses;
    private final List<InetSocketAddress> tcpAddresses;
    private final List<InetSocketAddress> tlsAddresses;
    private final ConnectionLimiter limiter;
    private final StreamCounters streamCounters;
    private final KernelUdpDrops kernelDrops = new KernelUdpDrops();
    private final UdpIo udpIo;

    private TurnServerTransport(
            EventLoopGroup group,
            List<RelayShard> shards,
            List<List<InetSocketAddress>> bound,
            ConnectionLimiter limiter,
            StreamCounters streamCounters,
            UdpIo udpIo) {
        this.udpIo = udpIo;
        this.group = group;
        this.shards = shards;
        this.udpAddresses = List.copyOf(bound.get(0));
        this.tcpAddresses = List.copyOf(bound.get(1));
        this.tlsAddresses = List.copyOf(bound.get(2));
        this.limiter = limiter;
        this.streamCounters = streamCounters;
    }

    public static TurnServerTransport start(TransportSettings settings) throws InterruptedException {
        int threads = NettyTransports.epoll() ? Math.max(1, settings.relayThreads()) : 1;
        UdpIo udpIo = settings.udpIo().resolve();
        EventLoopGroup group = NettyTransports.newGroup(threads, "tern-relay");
        StreamSettings streams = settings.streams();
        ConnectionLimiter limiter = new ConnectionLimiter(streams.maxConnections(), streams.maxConnectionsPerIp());
        StreamCounters streamCounters = new StreamCounters();
        List<RelayShard> shards = new ArrayList<>();
        List<InetSocketAddress> udp = new ArrayList<>();
        List<InetSocketAddress> tcp = new ArrayList<>();
        List<InetSocketAddress> tls = new ArrayList<>();
        int tcpBase = settings.udpAddresses().size();
        int tlsBase = tcpBase + settings.tcpAddresses().size();
        try {
            for (int t = 0; t < threads; t++) {
                EventLoop loop = group.next();
                int index = t;
                RelayShard shard = loop.submit(
                                () -> new RelayShard(loop, settings, limiter, streamCounters, index, threads, udpIo))
                        .sync()
                        .getNow();
                shards.add(shard);
                // Every shard binds the ports the first one got, so port 0 works in tests too.
                for (int i = 0; i < settings.udpAddresses().size(); i++) {
                    InetSocketAddress address = t == 0 ? settings.udpAddresses().get(i) : udp.get(i);
                    if (t == 0) {
                        PortProbe.requireFreeUdp(address);
                    }
                    InetSocketAddress got = bindUdp(loop, shard, i, address);
                    if (t == 0) {
                        udp.add(got);
                    }
                }
                for (int i = 0; i < settings.tcpAddresses().size(); i++) {
                    InetSocketAddress address = t == 0 ? settings.tcpAddresses().get(i) : tcp.get(i);
                    if (t == 0) {
                        PortProbe.requireFreeTcp(address);
                    }
                    InetSocketAddress got =
                            bindStream(loop, shard, tcpBase + i, TransportProtocol.TCP, address, null, streams);
                    if (t == 0) {
                        tcp.add(got);
                    }
                }
                for (int i = 0; i < settings.tlsAddresses().size(); i++) {
                    InetSocketAddress address = t == 0 ? settings.tlsAddresses().get(i) : tls.get(i);
                    if (t == 0) {
                        PortProbe.requireFreeTcp(address);
                    }
                    InetSocketAddress got = bindStream(
                            loop, shard, tlsBase + i, TransportProtocol.TLS, address, settings.tls(), streams);
                    if (t == 0) {
                        tls.add(got);
                    }
                }
                loop.submit(shard::start).sync();
            }
            for (RelayShard shard : shards) {
                shard.loop().submit(() -> shard.shards(shards)).sync();
            }
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new TurnServerTransport(group, shards, List.of(udp, tcp, tls), limiter, streamCounters, udpIo);
    }

    private static InetSocketAddress bindUdp(
            EventLoop loop, RelayShard shard, int listenerId, InetSocketAddress address) throws InterruptedException {
        try {
            return loop.submit(() -> shard.bindUdpListener(listenerId, address)).get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot bind UDP " + address, e.getCause());
        }
    }

    private static InetSocketAddress bindStream(
            EventLoop loop,
            RelayShard shard,
            int listenerId,
            TransportProtocol protocol,
            InetSocketAddress address,
            TlsContextSource tls,
            StreamSettings streams)
            throws InterruptedException {
        // Parent and children on the shard's own loop: the connection is served where it was accepted.
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop, loop)
                .channel(NettyTransports.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, ACCEPT_BACKLOG)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.MESSAGE_SIZE_ESTIMATOR, QueuedMessageSize.INSTANCE)
                .childOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(streams.writeLowWaterMarkBytes(), streams.writeHighWaterMarkBytes()))
                .childHandler(shard.streams().initializer(listenerId, tls));
        if (NettyTransports.epoll()) {
            bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
        }
        ChannelFuture future = bootstrap.bind(address).sync();
        try {
            loop.submit(() -> shard.addStreamListener(future.channel(), listenerId, protocol))
                    .get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        return (InetSocketAddress) future.channel().localAddress();
    }

    public List<InetSocketAddress> udpAddresses() {
        return udpAddresses;
    }

    public List<InetSocketAddress> tcpAddresses() {
        return tcpAddresses;
    }

    public List<InetSocketAddress> tlsAddresses() {
        return tlsAddresses;
    }

    /** The engines, one per relay thread; read their counters, never drive them from here. */
    public List<TurnEngine> engines() {
        List<TurnEngine> engines = new ArrayList<>();
        for (RelayShard shard : shards) {
            engines.add(shard.engine());
        }
        return engines;
    }

    /** How the relay threads do their UDP I/O: {@link UdpIo#NETTY} or {@link UdpIo#FFM}, never AUTO. */
    public UdpIo udpIo() {
        return udpIo;
    }

    public int relayThreads() {
        return shards.size();
    }

    /** Connection events of the TCP and TLS listeners. */
    public StreamCounters streamCounters() {
        return streamCounters;
    }

    /** Datagrams the kernel dropped at the relay's full UDP receive buffers, so far (read from /proc now). */
    public long kernelReceiveDrops() {
        return kernelDrops.total();
    }

    /** TCP and TLS connections open now. */
    public int streamConnections() {
        return limiter.total();
    }

    /** Bytes held for TCP and TLS clients (partial messages and write queues), over all threads. */
    public long streamBufferedBytes() {
        return sumOverShards(shard -> shard.streams().bufferedBytes());
    }

    /** The largest write queue of any TCP or TLS client, in bytes. */
    public long largestStreamWriteQueueBytes() {
        long largest = 0;
        for (RelayShard shard : shards) {
            largest = Math.max(largest, onLoop(shard, () -> shard.streams().largestWriteQueueBytes()));
        }
        return largest;
    }

    /** The most messages queued for one TCP or TLS client. */
    public long largestStreamWriteQueueMessages() {
        long largest = 0;
        for (RelayShard shard : shards) {
            largest = Math.max(largest, onLoop(shard, () -> shard.streams().largestWriteQueueMessages()));
        }
        return largest;
    }

    private long sumOverShards(java.util.function.ToLongFunction<RelayShard> f) {
        long total = 0;
        for (RelayShard shard : shards) {
            total += onLoop(shard, () -> f.applyAsLong(shard));
        }
        return total;
    }

    private static long onLoop(RelayShard shard, java.util.concurrent.Callable<Long> task) {
        try {
            return shard.loop().submit(task).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Closes every connection, deletes every allocation, closes every socket and stops the threads. */
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
