package io.tern.bench.jmh.nostr;

import io.tern.nostr.crypto.BouncyCastleSchnorrVerifier;
import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.engine.CheckedMessage;
import io.tern.nostr.engine.MessageChecker;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.message.ClientMessage;
import io.tern.nostr.message.ClientMessageDecoder;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-EVENT work before the store: decoding the message (jackson-core streaming), checking
 * the id (canonical serialisation and SHA-256) and verifying the BIP-340 signature with
 * libsecp256k1 (JNI) or the BouncyCastle fallback. {@code decodeAndSerialise} adds the event's
 * wire JSON (what the store writes and a broadcast sends) to a fresh decode, and {@code
 * publishPath} is all a connection thread does for one EVENT ({@link MessageChecker}: decode, id,
 * signature) plus that JSON.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class NostrEventBenchmark {
    @Param({"note", "article"})
    String event;

    private final EventHasher hasher = new EventHasher();
    private final ClientMessageDecoder decoder = new ClientMessageDecoder(500, 64);
    private final SchnorrVerifier jni = NostrFixtures.SECP;
    private final SchnorrVerifier bouncyCastle = new BouncyCastleSchnorrVerifier();
    private final MessageChecker checker = new MessageChecker(NostrConfig.defaults(), NostrFixtures.SECP);
    private Event e;
    private byte[] message;

    @Setup(Level.Trial)
    public void setUp() {
        e = "note".equals(event) ? NostrFixtures.note() : NostrFixtures.article();
        message = NostrFixtures.eventMessage(e);
        if (!hasher.idMatches(e) || !jni.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes())) {
            throw new IllegalStateException("fixture does not verify");
        }
    }

    @Benchmark
    public ClientMessage decode() {
        return decoder.decode(message, 0, message.length);
    }

    @Benchmark
    public byte[] decodeAndSerialise() {
        return ((ClientMessage.EventMessage) decoder.decode(message, 0, message.length))
                .event()
                .json();
    }

    @Benchmark
    public byte[] publishPath() {
        CheckedMessage m = checker.check(message, 0, message.length);
        if (m.eventProblem() != null) {
            throw new IllegalStateException(m.eventProblem());
        }
        return ((ClientMessage.EventMessage) m.message()).event().json();
    }

    @Benchmark
    public boolean idCheck() {
        return hasher.idMatches(e);
    }

    @Benchmark
    public boolean verifyJni() {
        return jni.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes());
    }

    @Benchmark
    public boolean verifyBouncyCastle() {
        return bouncyCastle.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes());
    }
}
