package io.tern.bench.origin.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.tern.bench.harness.sample.MachineCpu;
import io.tern.bench.harness.sample.ProcStats;
import io.tern.bench.harness.sample.ProcessTree;
import io.tern.bench.harness.sample.ResourceSampler;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.measure.Phases;
import io.tern.bench.origin.measure.RequestStats;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.Viewer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Simulates {@code viewers} players of one live stream on 127.0.0.1 with Netty's epoll
 * transport and pooled buffers: viewers start evenly over the ramp, then after the settling time
 * the measured window opens; at its end every viewer stops. Reports the viewers' figures, the
 * server's CPU and memory (its process tree, from /proc) and the generator's own CPU, as a
 * {@link RunRecord} ({@link LoadReport} names the fields).
 */
public final class OriginLoadGenerator {
    private static final long START_DELAY_NS = 100_000_000L;
    private static final long STOP_TIMEOUT_S = 20;
    private static final int RECEIVE_MIN = 2048;
    private static final int RECEIVE_INITIAL = 16 * 1024;
    private static final int RECEIVE_MAX = 256 * 1024;

    /** Name prefix of the event loop threads, for their CPU in /proc/self/task (15 characters at most). */
    static final String LOOP_THREAD = "viewer-loop";
    /**
     * A JVM server's JIT compiler threads (/proc truncates names to 15 characters): their CPU in
     * the window is compilation still under way, a start-up cost that a low request rate spreads
     * over minutes.
     */
    static final String[] JIT_THREADS = {"C2 CompilerThre", "C1 CompilerThre"};
    /** The JVM's VM thread, which runs SerialGC's collections and other safepoint operations. */
    static final String VM_THREAD = "VM Thread";

    private final OriginLoadConfig config;

    public OriginLoadGenerator(OriginLoadConfig config) {
        this.config = config;
    }

    public RunRecord run() throws Exception {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException(
                    "the viewer load generator needs Netty's epoll transport (Linux)", Epoll.unavailabilityCause());
        }
        long limit = ProcessTree.openFilesLimit();
        if (limit >= 0 && limit < config.filesNeeded()) {
            throw new IOException(config.viewers() + " viewers need " + config.filesNeeded()
                    + " open files (two connections per rendition), but this process may open " + limit
                    + ": raise it with ulimit -n (bench/origin/run does)");
        }
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(
                config.loopThreads(), new DefaultThreadFactory(LOOP_THREAD), EpollIoHandler.newFactory());
        try {
            return runOn(group);
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    private RunRecord runOn(MultiThreadIoEventLoopGroup group) throws Exception {
        InetSocketAddress remote = new InetSocketAddress("127.0.0.1", config.port());
        Bootstrap base = new Bootstrap()
                .group(group)
                .channel(EpollSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5000)
                .option(
                        ChannelOption.RCVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator(RECEIVE_MIN, RECEIVE_INITIAL, RECEIVE_MAX));
        MediaTimeline timeline = new MediaTimeline();
        long t0 = System.nanoTime() + START_DELAY_NS;
        long rampNs = (long) (config.rampSeconds() * 1e9);
        long fromNs = t0 + rampNs + (long) (config.settleSeconds() * 1e9);
        long toNs = fromNs + (long) (config.measureSeconds() * 1e9);
        List<ViewerLoop> loops = new ArrayList<>();
        for (EventExecutor e : group) {
            loops.add(new ViewerLoop(
                    (EventLoop) e,
                    base,
                    remote,
                    timeline,
                    new Phases(
                            new RequestStats(timeline, t0, fromNs), new RequestStats(timeline, fromNs, toNs), fromNs),
                    config.maxPlaylistBytes(),
                    TimeUnit.MILLISECONDS.toNanos(config.requestTimeoutMs())));
        }
        int[] perLoop = new int[loops.size()];
        for (int i = 0; i < config.viewers(); i++) {
            int l = i % loops.size();
            ViewerLoop loop = loops.get(l);
            long startAt = t0 + (config.viewers() == 1 ? 0 : rampNs * i / config.viewers());
            Viewer v = config.mode().create(config.entryPath(), config.allRenditions(), startAt, loop.stats());
            loop.add(new ViewerSession(loop, perLoop[l]++, v));
        }
        for (ViewerLoop loop : loops) {
            loop.eventLoop().submit(loop::start).sync();
        }
        ProcessTree server = new ProcessTree(config.serverPid());
        long self = ProcessHandle.current().pid();
        long[] loopThreadIds = new long[loops.size()];
        for (int i = 0; i < loops.size(); i++) {
            loopThreadIds[i] = loops.get(i)
                    .eventLoop()
                    .submit(() -> Thread.currentThread().threadId())
                    .get();
        }
        Allocations allocations = new Allocations(loopThreadIds);
        // Sampling from the start keeps its code compiled before the window; it counts only the window.
        ResourceSampler sampler = new ResourceSampler(server, fromNs, toNs).start();
        Snapshot.take(server, self, config.publisherPid(), allocations);
        sleepUntil(fromNs);
        Snapshot a = Snapshot.take(server, self, config.publisherPid(), allocations);
        sleepUntil(toNs);
        Snapshot b = Snapshot.take(server, self, config.publisherPid(), allocations);
        sampler.close();
        long pss = server.pssBytes();
        int processes = server.pids().size();
        RequestStats merged = new RequestStats(timeline, fromNs, toNs);
        long connects = 0;
        long parses = 0;
        long hits = 0;
        long malformed = 0;
        String firstMalformed = null;
        for (ViewerLoop loop : loops) {
            loop.eventLoop()
                    .submit(() -> {
                        loop.stop();
                        merged.add(loop.stats().measured());
                    })
                    .get(STOP_TIMEOUT_S, TimeUnit.SECONDS);
            connects += loop.connects();
            parses += loop.playlists().parses();
            hits += loop.playlists().hits();
            malformed += loop.malformedPlaylists();
            if (firstMalformed == null) {
                firstMalformed = loop.firstMalformed();
            }
        }
        return LoadReport.build(new LoadReport.Inputs(
                config,
                merged,
                timeline,
                fromNs,
                toNs,
                a,
                b,
                sampler,
                pss,
                processes,
                connects,
                parses,
                hits,
                malformed,
                firstMalformed));
    }

    private static void sleepUntil(long deadlineNs) throws InterruptedException {
        while (true) {
            long left = deadlineNs - System.nanoTime();
            if (left <= 0) {
                return;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, 100_000_000L));
        }
    }

    /** CPU counters of everything measured, and the loops' allocations, at one moment. */
    record Snapshot(
            long nowNs,
            long serverTicks,
            long serverJitTicks,
            long serverVmThreadTicks,
            long generatorTicks,
            long loopTicks,
            long loopAllocatedBytes,
            long publisherTicks,
            MachineCpu machine) {
        static Snapshot take(ProcessTree server, long self, long publisherPid, Allocations allocations) {
            long pub = 0;
            if (publisherPid > 0 && ProcStats.alive(publisherPid)) {
                try {
                    pub = ProcStats.cpuTicks(publisherPid);
                } catch (RuntimeException gone) {
                    pub = 0;
                }
            }
            return new Snapshot(
                    System.nanoTime(),
                    server.cpuTicks(),
                    server.threadTicks(JIT_THREADS),
                    server.threadTicks(VM_THREAD),
                    ProcStats.cpuTicks(self),
                    ProcessTree.threadTicks(self, LOOP_THREAD),
                    allocations.bytes(),
                    pub,
                    MachineCpu.now());
        }
    }
}
