package io.tern.bench.jmh.nostr;

import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.engine.Admission;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.engine.NostrEngine;
import io.tern.nostr.engine.NostrOutput;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole engine path of one ephemeral offer to 1,000 subscribers in its room: decode, id
 * check, rate limits, fan-out and the 1,001 queued outputs, drained as an adapter would. The
 * signature check is stubbed (it is measured in {@link NostrEventBenchmark}); the rate limits
 * are off. The engine broadcasts an event once (a repeat is dropped by id), so the benchmark
 * cycles through {@value #OFFERS} distinct offers, twice the engine's window of recent ids here.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class NostrBroadcastBenchmark {
    static final int OFFERS = 2048;

    private NostrEngine engine;
    private final byte[][] messages = new byte[OFFERS][];
    private int next;
    private long nowNs = 1_000_000_000L;

    @Setup(Level.Trial)
    public void setUp() {
        SchnorrVerifier accept = new SchnorrVerifier() {
            @Override
            public boolean verify(byte[] signature, byte[] msg, byte[] publicKey) {
                return true;
            }

            @Override
            public String name() {
                return "accept-all";
            }
        };
        NostrConfig config = NostrConfig.builder()
                .eventRatePerIp(0, 1)
                .eventRatePerPubkey(0, 1)
                .reqRatePerIp(0, 1)
                .maxConnectionsPerIp(2000)
                .recentBroadcasts(OFFERS / 2)
                .build();
        engine = new NostrEngine(config, accept, () -> NostrFixtures.NOW, new Random(1), nowNs);
        String room = "0".repeat(63) + "1";
        byte[] req = ("[\"REQ\",\"rv\",{\"kinds\":[25050],\"#p\":[\"" + room + "\"],\"limit\":0}]")
                .getBytes(StandardCharsets.UTF_8);
        for (int i = 1; i <= 1000; i++) {
            if (engine.onOpen(i, "10.0.0.1", "localhost", nowNs) != Admission.ACCEPTED) {
                throw new IllegalStateException("not admitted");
            }
            engine.onMessage(i, req, 0, req.length, nowNs);
        }
        engine.onOpen(5000, "10.0.0.2", "localhost", nowNs);
        drain();
        for (int i = 0; i < OFFERS; i++) {
            messages[i] = NostrFixtures.eventMessage(NostrFixtures.offer(room, i));
        }
    }

    private int drain() {
        int n = 0;
        NostrOutput o;
        while ((o = engine.poll()) != null) {
            if (o instanceof NostrOutput.Send send) {
                n += send.length();
            } else if (o instanceof NostrOutput.Broadcast b) {
                n += b.recipients() * (b.body().length + b.tail().length);
            }
        }
        return n;
    }

    @Benchmark
    public int offerToThousand() {
        byte[] message = messages[next];
        next = (next + 1) % OFFERS;
        engine.onMessage(5000, message, 0, message.length, nowNs);
        int bytes = drain();
        if (bytes == 0) {
            throw new IllegalStateException("the offer was not broadcast");
        }
        return bytes;
    }
}
