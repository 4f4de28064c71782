package io.tern.bench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.EventExecutor;
import io.tern.bench.client.RestCredentials;
import io.tern.bench.harness.sample.PeakRssSampler;
import io.tern.bench.harness.sample.ProcStats;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop TURN ChannelData load over loopback: sets up {@code clients} allocations spread
 * over {@code loadWorkers} event loops, each with its own echo peer, runs an uncounted warm-up
 * and then a measured phase, and reports a {@link RunResult}. Uses Netty epoll (recvmmsg on the
 * peer and client datagram sockets, sendmmsg when several datagrams are flushed together).
 */
public final class LoadGenerator {
    private static final int MAX_DATAGRAM_BYTES = 2048;
    private static final int RECV_BATCH = 32;
    private static final int SOCKET_BUFFER_BYTES = 1 << 20;
    private static final long SETUP_TIMEOUT_MS = 30_000;

    private final LoadConfig config;
    private final boolean epoll = Epoll.isAvailable();
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private final List<Worker> workers = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private String diagnostics = "";

    public LoadGenerator(LoadConfig config) {
        this.config = config;
    }

    /** Counter breakdown of the measured phase (lost, late, duplicate, reordered, corrupt). */
    public String diagnostics() {
        return diagnostics;
    }

    public RunResult run() throws Exception {
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(config.loadWorkers(), io);
        try {
            return runOn(group);
        } finally {
            for (Channel c : channels) {
                c.close();
            }
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    private RunResult runOn(MultiThreadIoEventLoopGroup group) throws Exception {
        int id = 0;
        for (EventExecutor e : group) {
            workers.add(new Worker(id++, (EventLoop) e, config, alloc));
        }
        for (Worker w : workers) {
            startPeer(w);
        }
        long pid = config.serverPid();
        long idleRss = pid > 0 ? ProcStats.rssBytes(pid) : -1;
        try (PeakRssSampler sampler = new PeakRssSampler(pid).start()) {
            double serverCpu0 = serverCpu();
            double serverSystem0 = serverSystemCpu();
            long setupStartNs = System.nanoTime();
            setupClients();
            long setupEndNs = System.nanoTime();
            double serverCpuSetup = serverCpu() - serverCpu0;
            double serverSystemSetup = serverSystemCpu() - serverSystem0;
            Setup setup = new Setup(idleRss, serverCpuSetup, serverSystemSetup, setupEndNs - setupStartNs);

            if (config.nativeGenerator() != null) {
                return nativeRun(sampler, setup);
            }
            if (config.warmupRoundTrips() > 0 || config.warmupSeconds() > 0) {
                phase(config.warmupRoundTrips(), config.warmupSeconds());
            }

            double genCpu0 = ProcStats.cpuSeconds(ProcessHandle.current().pid());
            double serverCpu1 = serverCpu();
            double serverSystem1 = serverSystemCpu();
            long t0 = System.nanoTime();
            phase(config.roundTrips(), config.minSeconds());
            long t1 = System.nanoTime();
            double serverCpuMeasured = serverCpu() - serverCpu1;
            double serverSystemMeasured = serverSystemCpu() - serverSystem1;
            double genCpu = ProcStats.cpuSeconds(ProcessHandle.current().pid()) - genCpu0;

            Histogram h = new Histogram(Worker.MAX_LATENCY_NS, 3);
            long roundTrips = 0;
            long lost = 0, late = 0, duplicate = 0, reordered = 0, corrupt = 0, unknown = 0;
            for (Worker w : workers) {
                h.add(w.histogram());
                SequenceTracker t = w.tracker();
                roundTrips += t.complete();
                lost += t.lost();
                late += t.late();
                duplicate += t.duplicate();
                reordered += t.reordered();
                corrupt += t.corruptCount();
                unknown += t.unknown();
                w.cancelTimers();
            }
            diagnostics = "lost=" + lost + " late=" + late + " duplicate=" + duplicate + " reordered=" + reordered
                    + " corrupt=" + corrupt + " unknown=" + unknown;
            Measured measured = new Measured(
                    roundTrips,
                    (t1 - t0) / 1e9,
                    h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0,
                    lost + corrupt + duplicate + unknown,
                    serverCpuMeasured,
                    serverSystemMeasured,
                    genCpu,
                    Math.min(config.loadWorkers(), Runtime.getRuntime().availableProcessors()),
                    "java");
            return result(sampler, setup, measured);
        }
    }

    /** What allocation setup cost: the server's idle RSS before it, its CPU during it, and its wall time. */
    private record Setup(long idleRss, double serverCpuSeconds, double serverSystemCpuSeconds, long wallNs) {}

    /**
     * The measured phase, from whichever generator ran it. {@code generatorThreads}: how many CPUs the
     * generator can use, for the saturation mark.
     */
    private record Measured(
            long roundTrips,
            double seconds,
            double p50Us,
            double p99Us,
            long lossOrCorruption,
            double serverCpuSeconds,
            double serverSystemCpuSeconds,
            double generatorCpuSeconds,
            int generatorThreads,
            String generator) {}

    /** The warm-up and measured phases in turnload, on the sockets set up here. */
    private RunResult nativeRun(PeakRssSampler sampler, Setup setup) throws Exception {
        List<Channel> clientChannels = new ArrayList<>();
        List<Channel> peers = new ArrayList<>();
        for (Worker w : workers) {
            peers.add(w.peer);
            for (ClientSession s : w.clients) {
                clientChannels.add(s.channel());
            }
        }
        NativeLoad.Result n = NativeLoad.run(config, clientChannels, peers, ClientSession.CHANNEL);
        diagnostics = "lost=" + n.lost() + " late=" + n.late() + " duplicate=" + n.duplicate() + " reordered=0"
                + " corrupt=" + n.corrupt() + " unknown=" + n.unknown() + " (turnload)";
        Measured measured = new Measured(
                n.roundTrips(),
                n.seconds(),
                n.p50Us(),
                n.p99Us(),
                n.lost() + n.corrupt() + n.duplicate() + n.unknown(),
                n.serverCpuSeconds(),
                n.serverSystemCpuSeconds(),
                n.generatorCpuSeconds(),
                1,
                "c");
        return result(sampler, setup, measured);
    }

    private RunResult result(PeakRssSampler sampler, Setup setup, Measured m) {
        long pid = config.serverPid();
        long loadedRss = sampler.sample();
        int udpSockets = pid > 0 ? ProcStats.udpSockets(pid) : -1;
        double setupSeconds = setup.wallNs() / 1e9;
        double workloadWall = m.seconds() + setupSeconds;
        double serverCpu = setup.serverCpuSeconds() + m.serverCpuSeconds();
        long packets = 2 * m.roundTrips();
        double pps = packets / m.seconds();
        double genPercent = 100.0 * m.generatorCpuSeconds() / m.seconds();
        return new RunResult(
                config.clients(),
                config.loadWorkers(),
                config.payloadBytes(),
                config.window(),
                m.roundTrips(),
                packets,
                m.seconds(),
                pps,
                pps * config.payloadBytes() * 8 / 1e6,
                m.p50Us(),
                m.p99Us(),
                setupSeconds * 1000,
                m.lossOrCorruption(),
                config.serverName(),
                setup.idleRss(),
                loadedRss,
                Math.max(sampler.peakRssBytes(), loadedRss),
                pid > 0 ? serverCpu : -1,
                workloadWall,
                pid > 0 ? 100.0 * serverCpu / workloadWall : -1,
                udpSockets,
                config.repeat(),
                config.transport().label(),
                config.serverVersion(),
                config.relayThreads(),
                genPercent,
                genPercent >= 90.0 * m.generatorThreads(),
                pid > 0 ? setup.serverSystemCpuSeconds() + m.serverSystemCpuSeconds() : -1,
                pid > 0 ? setup.serverCpuSeconds() : -1,
                m.generator());
    }

    private double serverCpu() {
        return config.serverPid() > 0 ? ProcStats.cpuSeconds(config.serverPid()) : 0;
    }

    private double serverSystemCpu() {
        return config.serverPid() > 0 ? ProcStats.systemCpuSeconds(config.serverPid()) : 0;
    }

    /** Runs one phase until {@code roundTrips} and {@code minSeconds} are both reached (bounded by maxSeconds), then drains. */
    private void phase(long roundTrips, double minSeconds) throws Exception {
        for (Worker w : workers) {
            w.requestStart().get(5, TimeUnit.SECONDS);
        }
        long startNs = System.nanoTime();
        long minNs = (long) (minSeconds * 1e9);
        long maxNs = (long) (config.maxSeconds() * 1e9);
        while (true) {
            Thread.sleep(2);
            long done = 0;
            for (Worker w : workers) {
                done += w.completed.get();
            }
            long elapsed = System.nanoTime() - startNs;
            if ((done >= roundTrips && elapsed >= minNs) || elapsed >= maxNs) {
                break;
            }
        }
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (Worker w : workers) {
            stops.add(w.requestStop());
        }
        CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new))
                .get(config.lossTimeoutMs() + 5_000, TimeUnit.MILLISECONDS);
    }

    private void startPeer(Worker w) throws InterruptedException {
        Bootstrap b = datagramBootstrap(w.loop).handler(new EchoPeerHandler());
        Channel ch = b.bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        channels.add(ch);
        w.peer = ch;
        w.peerAddress = (InetSocketAddress) ch.localAddress();
    }

    private Bootstrap datagramBootstrap(EventLoop loop) {
        Bootstrap b = new Bootstrap()
                .group(loop)
                .channelFactory(
                        (ChannelFactory<Channel>) () -> epoll ? new EpollDatagramChannel() : new NioDatagramChannel())
                .option(ChannelOption.ALLOCATOR, alloc)
                .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        if (epoll) {
            b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM_BYTES)
                    .option(
                            ChannelOption.RCVBUF_ALLOCATOR,
                            new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES * RECV_BATCH));
        }
        return b;
    }

    private void setupClients() throws Exception {
        long expiry = System.currentTimeMillis() / 1000 + 3600;
        SslContext ssl = config.transport() == Transport.TLS ? clientSsl() : null;
        List<ClientSession> all = new ArrayList<>();
        for (int i = 0; i < config.clients(); i++) {
            Worker w = workers.get(i % workers.size());
            RestCredentials creds = RestCredentials.of(config.secret(), config.user() + i, expiry);
            ClientSession[] holder = new ClientSession[1];
            Channel ch;
            if (config.transport() == Transport.UDP) {
                Bootstrap b = datagramBootstrap(w.loop).handler(new DatagramClientHandler(holder, w));
                ch = (config.connectedUdp()
                                ? b.connect(config.server(), new InetSocketAddress("127.0.0.1", 0))
                                : b.bind(new InetSocketAddress("127.0.0.1", 0)))
                        .sync()
                        .channel();
            } else {
                ch = new Bootstrap()
                        .group(w.loop)
                        .channelFactory((ChannelFactory<Channel>)
                                () -> epoll ? new EpollSocketChannel() : new NioSocketChannel())
                        .option(ChannelOption.ALLOCATOR, alloc)
                        .option(ChannelOption.TCP_NODELAY, true)
                        .handler(new ChannelInitializer<>() {
                            @Override
                            protected void initChannel(Channel c) {
                                if (ssl != null) {
                                    c.pipeline()
                                            .addLast(ssl.newHandler(
                                                    c.alloc(),
                                                    config.server().getHostString(),
                                                    config.server().getPort()));
                                }
                                c.pipeline().addLast(new StreamFramer(), new StreamClientHandler(holder, w));
                            }
                        })
                        .connect(config.server())
                        .sync()
                        .channel();
            }
            channels.add(ch);
            ClientSession s = new ClientSession(
                    w,
                    w.clients.size(),
                    i,
                    ch,
                    config.server(),
                    config.transport().stream(),
                    config.connectedUdp(),
                    creds);
            holder[0] = s;
            w.clients.add(s);
            all.add(s);
        }
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (ClientSession s : all) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            s.worker.loop.execute(() -> s.setup(s.worker.peerAddress, config.noAuth())
                    .whenComplete((v, e) -> {
                        if (e != null) {
                            f.completeExceptionally(e);
                        } else {
                            f.complete(null);
                        }
                    }));
            done.add(f);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(SETUP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    }

    private static SslContext clientSsl() throws SSLException {
        // Loopback benchmark against a self-signed certificate generated for the run.
        return SslContextBuilder.forClient()
                .trustManager(InsecureTrustManagerFactory.INSTANCE)
                .build();
    }

    /** Echoes every datagram back to its sender (the relay address), flushing once per read batch. */
    private static final class EchoPeerHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
            ctx.write(new DatagramPacket(p.content().retain(), p.sender()), ctx.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    private static final class DatagramClientHandler extends SimpleChannelInboundHandler<DatagramPacket> {
        private final ClientSession[] session;
        private final Worker worker;

        DatagramClientHandler(ClientSession[] session, Worker worker) {
            this.session = session;
            this.worker = worker;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
            if (session[0] != null) {
                session[0].onFrame(p.content());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            worker.flushDirty();
        }
    }

    private static final class StreamClientHandler extends SimpleChannelInboundHandler<ByteBuf> {
        private final ClientSession[] session;
        private final Worker worker;

        StreamClientHandler(ClientSession[] session, Worker worker) {
            this.session = session;
            this.worker = worker;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            if (session[0] != null) {
                session[0].onFrame(frame);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            worker.flushDirty();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            System.err.println("tern-bench: client connection error: " + cause);
            ctx.close();
        }
    }
}
