package io.tern.bench.jmh.hls;

import io.tern.hls.swarm.Attestation;
import io.tern.hls.swarm.ObjectKind;
import io.tern.hls.swarm.OriginKey;
import io.tern.hls.swarm.StreamSigner;
import java.security.SecureRandom;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the origin pays once per object with the swarm on (issue 25's goal: at most 100 µs a part):
 * SHA-256 over the object's bytes and one Ed25519 signature by the session key, with the
 * attestation line built. 40 KB is a 200 ms part of a 1.5 Mbit/s stream; 400 KB a 2 s segment of it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class SwarmSigningBenchmark {
    private static final long NOW_EPOCH_S = 1_764_619_200L;

    @Param({"40000", "400000"})
    public int objectBytes;

    private StreamSigner signer;
    private byte[] object;
    private long msn;

    @Setup
    public void setUp() {
        byte[] seed = new byte[32];
        new Random(25).nextBytes(seed);
        signer = new StreamSigner(
                OriginKey.fromSeed(seed), "bench", "i-1", new SecureRandom(), StreamSigner.DEFAULT_SESSION_LIFETIME_S);
        signer.sessions(NOW_EPOCH_S); // the session key is made and endorsed once per instance
        object = new byte[objectBytes];
        new Random(1).nextBytes(object);
    }

    @Benchmark
    public Attestation attestPart() {
        return signer.attest(ObjectKind.PART, "video", msn++, 3, object, NOW_EPOCH_S);
    }
}
