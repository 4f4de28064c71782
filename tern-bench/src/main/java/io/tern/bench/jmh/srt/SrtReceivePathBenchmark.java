package io.tern.bench.jmh.srt;

import io.tern.srt.Delivery;
import io.tern.srt.SrtCaller;
import io.tern.srt.SrtEvent;
import io.tern.srt.SrtListener;
import io.tern.srt.SrtSettings;
import io.tern.srt.Transmit;
import java.net.InetSocketAddress;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * The listener's receive path for one 1316-byte data packet of a connected session: demultiplex by
 * socket id, decrypt (AES-CTR), ARQ bookkeeping, TSBPD delivery into the pooled delivery queue,
 * and the ACKs it triggers, drained as the adapter drains them. Target: 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class SrtReceivePathBenchmark {
    static final InetSocketAddress LISTENER = new InetSocketAddress("127.0.0.1", 9000);
    static final InetSocketAddress CALLER = new InetSocketAddress("127.0.0.1", 40000);

    @Param({"0", "16", "32"})
    int keyLength;

    private SrtListener listener;
    private final Transmit t = new Transmit();
    private final Delivery d = new Delivery();
    private byte[] template;
    private int templateLength;
    private int seq;
    private int timestampUs;
    private long nowNs;
    private long delivered;

    @Setup(Level.Trial)
    public void setUp() {
        String pass = keyLength == 0 ? null : "benchmark-passphrase";
        listener = new SrtListener(SrtSettings.defaults(), new Random(1));
        SrtCaller caller = new SrtCaller(
                SrtSettings.defaults(),
                SrtCaller.Options.of("publish:live/bench", pass, Math.max(16, keyLength)),
                new Random(2));
        nowNs = 1_000_000_000L;
        caller.connect(LISTENER, nowNs);
        boolean connected = false;
        for (int round = 0; round < 4; round++) {
            while (caller.pollTransmit(t)) {
                listener.onDatagram(t.data, 0, t.length, CALLER, nowNs);
            }
            for (SrtEvent e; (e = listener.pollEvent()) != null; ) {
                if (e instanceof SrtEvent.PublishRequested request) {
                    listener.acceptPublish(request.requestId(), pass, nowNs);
                }
                connected |= e instanceof SrtEvent.Connected;
            }
            while (listener.pollTransmit(t)) {
                caller.onDatagram(t.data, 0, t.length, LISTENER, nowNs);
            }
        }
        if (!caller.connected() || !connected) {
            throw new IllegalStateException("no connection");
        }
        byte[] payload = new byte[1316];
        caller.send(payload, 0, payload.length, nowNs);
        caller.pollTransmit(t);
        template = java.util.Arrays.copyOf(t.data, t.length);
        templateLength = t.length;
        seq = ((template[0] & 0x7F) << 24)
                | ((template[1] & 0xFF) << 16)
                | ((template[2] & 0xFF) << 8)
                | (template[3] & 0xFF);
    }

    @TearDown(Level.Trial)
    public void check() {
        if (delivered == 0) {
            throw new IllegalStateException("nothing delivered");
        }
    }

    /** One data packet in order, its play time already due (latency is spent by the clock jump). */
    @Benchmark
    public long dataPacket() {
        template[0] = (byte) ((seq >>> 24) & 0x7F);
        template[1] = (byte) (seq >>> 16);
        template[2] = (byte) (seq >>> 8);
        template[3] = (byte) seq;
        template[8] = (byte) (timestampUs >>> 24);
        template[9] = (byte) (timestampUs >>> 16);
        template[10] = (byte) (timestampUs >>> 8);
        template[11] = (byte) timestampUs;
        seq = (seq + 1) & 0x7FFF_FFFF;
        timestampUs += 1000;
        nowNs += 1_000_000L;
        listener.onDatagram(template, 0, templateLength, CALLER, nowNs + 200_000_000L);
        if (listener.nextDeadlineNs() <= nowNs + 200_000_000L) {
            listener.onTimeout(nowNs + 200_000_000L);
        }
        long sum = 0;
        while (listener.pollDelivery(d)) {
            sum += d.length;
            delivered++;
        }
        while (listener.pollTransmit(t)) {
            sum += t.length;
        }
        return sum;
    }
}
