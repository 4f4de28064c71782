package io.tern.netty.srt;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import io.tern.srt.SrtSettings;
import io.tern.testkit.Await;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * While ffmpeg publishes, the listener's socket is hit with garbage, truncated and forged
 * handshakes, conclusions with a wrong cookie, oversized datagrams and an induction storm from
 * many source ports: the live stream arrives complete and the listener holds no handshake state.
 */
class SrtBadInputInteropTest {
    static EventLoopGroup group;
    static Path fixture;
    static int videoFrames;

    @BeforeAll
    static void setUp() throws Exception {
        SrtPeers.requireAll();
        fixture = SrtPeers.fixture();
        videoFrames = (int)
                SrtPeers.probe(fixture).stream().filter(p -> p.stream() == 0).count();
        group = NettyTransports.newGroup(1, "srt-bad-input");
    }

    @AfterAll
    static void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void aLiveStreamSurvivesFloodsAndForgeries() throws Exception {
        IngestRecorder rec = new IngestRecorder();
        try (SrtServer server = SrtServer.start(
                group, new InetSocketAddress("127.0.0.1", 0), SrtSettings.defaults(), new DemuxingIngest(rec))) {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", server.port());
            CompletableFuture<SrtPeers.Result> publish = CompletableFuture.supplyAsync(() -> {
                try {
                    return SrtInteropTest.ffmpegPublishTo(
                            fixture, server.port(), "streamid=publish:live/plain-attacked");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            rec.started("live/plain-attacked").get(10, TimeUnit.SECONDS);
            long[] peak = attack(target, server);
            SrtPeers.Result r = publish.get(60, TimeUnit.SECONDS);
            assertThat(r.exit()).as(r.output()).isZero();
            IngestRecorder.Stream s = rec.byName.get("live/plain-attacked");
            IngestRecorder.Ended end = s.ended.get(15, TimeUnit.SECONDS);
            assertThat(end.ts().errors()).as("%s", end.ts()).isZero();
            assertThat(s.video).hasSize(videoFrames);
            assertThat(peak[0]).as("sessions during the attack").isEqualTo(1);
            assertThat(peak[1]).as("handshake state held").isZero();
            long[] after = server.engineCounts().get();
            assertThat(after[0]).isZero();
            assertThat(after[2]).as("inductions answered").isGreaterThanOrEqualTo(300);
            assertThat(after[3]).as("datagrams dropped silently").isGreaterThan(1000);
        }
    }

    /** Returns the engine's {sessions, pending handshakes} at the end of the attack. */
    private static long[] attack(InetSocketAddress target, SrtServer server) throws Exception {
        Random r = new Random(5);
        try (DatagramChannel ch = DatagramChannel.open()) {
            ch.bind(new InetSocketAddress("127.0.0.1", 0));
            for (int round = 0; round < 2000; round++) {
                byte[] g = new byte[1 + r.nextInt(1400)];
                r.nextBytes(g);
                switch (round % 5) {
                    case 0 -> {
                        // garbage with a plausible header: aimed at socket ids nobody owns
                    }
                    case 1 -> g = handshakeHeader(java.util.Arrays.copyOf(g, 16 + r.nextInt(48))); // truncated
                    case 2 -> {
                        g = handshakeHeader(java.util.Arrays.copyOf(g, 120)); // forged conclusion
                        ByteBuffer.wrap(g).putInt(16, 5).putInt(36, -1).putInt(44, r.nextInt());
                    }
                    case 3 -> g = new byte[1600 + r.nextInt(6000)]; // oversized
                    default -> {}
                }
                ch.send(ByteBuffer.wrap(g), target);
                if (round % 50 == 0) {
                    // Pacing the attack so the kernel's socket buffer does not drop it: not a wait.
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
                }
            }
        }
        List<DatagramChannel> storm = new ArrayList<>();
        long inductionsBefore = server.engineCounts().get()[2];
        try {
            ByteBuffer induction = ByteBuffer.allocate(64);
            induction
                    .putInt(0, 0x8000_0000)
                    .putInt(16, 4)
                    .putInt(20, 2)
                    .putInt(28, 1500)
                    .putInt(36, 1);
            for (int i = 0; i < 300; i++) {
                DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                storm.add(c);
                c.send(induction.duplicate().position(0).limit(64), target);
            }
            Await.await(
                    "the 300 inductions answered",
                    Duration.ofSeconds(10),
                    () -> server.engineCounts().get()[2] >= inductionsBefore + 300);
        } finally {
            for (DatagramChannel c : storm) {
                c.close();
            }
        }
        long[] counts = server.engineCounts().get();
        return new long[] {counts[0], counts[1]};
    }

    private static byte[] handshakeHeader(byte[] g) {
        ByteBuffer b = ByteBuffer.wrap(g);
        b.putInt(0, 0x8000_0000);
        b.putInt(12, 0);
        return g;
    }
}
