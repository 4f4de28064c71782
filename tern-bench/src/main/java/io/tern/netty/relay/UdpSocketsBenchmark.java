package io.tern.netty.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.MutableDirectBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A relay thread's UDP sockets on either path ({@code udp-io netty} or {@code ffm}), over real
 * loopback sockets: a client sends {@code window} datagrams to a listener, the listener's input
 * sends each back to its sender at once (in place where the path can), and the client reads them
 * all. This is the socket half of the relay path ({@code RelayPathBenchmark} is the engine half),
 * on the shard's own epoll loop thread; the client is a connected NIO channel with direct buffers,
 * which allocates nothing itself, so {@code gc.alloc.rate.norm} (over all threads) is the sockets'
 * own allocation per window. In this package because {@link UdpSockets} is the shard's, not public.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "-Dio.netty.leakDetection.level=disabled"
        })
public class UdpSocketsBenchmark {
    @Param({"netty", "ffm"})
    String io;

    @Param({"1200"})
    int payloadBytes;

    @Param({"1", "16"})
    int window;

    private EventLoopGroup group;
    private UdpSockets sockets;
    private DatagramChannel client;
    private ByteBuffer out;
    private ByteBuffer in;
    private final AtomicLong dropped = new AtomicLong();

    /** Sends every client datagram straight back, as the relay sends relayed data on. */
    private final class Echo implements UdpInput {
        @Override
        public void onClientDatagram(
                int listenerId,
                TransportAddress sender,
                ByteBuf inbound,
                MutableDirectBuffer data,
                int offset,
                int length) {
            sockets.sendToClient(listenerId, sender, data, offset, length, inbound);
        }

        @Override
        public void onPeerDatagram(
                int relayId,
                TransportAddress sender,
                ByteBuf inbound,
                MutableDirectBuffer data,
                int offset,
                int length) {}

        @Override
        public void onRelayReadDone(int relayId) {}

        @Override
        public void drop(DropReason reason) {
            dropped.incrementAndGet();
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        UdpIo udpIo = UdpIo.parse(io).resolve();
        group = NettyTransports.newGroup(1, "bench-udp");
        EventLoop loop = group.next();
        InetSocketAddress listener = loop.submit(() -> {
                    sockets = udpIo.newSockets(loop, new EventLoopFlush(loop), UdpSocketSettings.DEFAULT, new Echo());
                    return sockets.bindListener(0, new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort()));
                })
                .get();
        client = DatagramChannel.open();
        client.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client.connect(listener);
        out = ByteBuffer.allocateDirect(payloadBytes);
        in = ByteBuffer.allocateDirect(4096);
    }

    private static int freePort() throws Exception {
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        client.close();
        group.next().submit(() -> sockets.closeAll()).get();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        if (dropped.get() != 0) {
            throw new IllegalStateException(dropped.get() + " datagrams dropped");
        }
    }

    /** {@code window} datagrams out and back. */
    @Benchmark
    public int roundTrips() throws Exception {
        for (int i = 0; i < window; i++) {
            out.clear();
            client.write(out);
        }
        int bytes = 0;
        for (int i = 0; i < window; i++) {
            in.clear();
            bytes += client.read(in);
        }
        return bytes;
    }
}
