package io.tern.bench.jmh;

import io.tern.stun.message.StunMethod;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
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
 * An authenticated request through the real {@link TurnEngine}, end to end: decode, FINGERPRINT,
 * nonce, credential lookup, MESSAGE-INTEGRITY, the handler (a permission or channel refresh) and the
 * signed response. The transaction cache is off, so the same signed request is processed in full
 * every time instead of being answered from the cache. {@code -prof gc} shows what it allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class ControlPathBenchmark {
    /** static: a user from the configuration; rest: a TURN REST username checked against the shared secret. */
    @Param({"static", "rest"})
    String credentials;

    @Param({"createPermission", "channelBind"})
    String request;

    private EngineHarness harness;
    private TurnEngine engine;
    private UnsafeBuffer message;
    private int length;
    private int method;
    private long answeredBefore;
    private long requestsBefore;
    private long errorsBefore;

    @Setup(Level.Trial)
    public void setUp() {
        harness = new EngineHarness("rest".equals(credentials), c -> c.transactionCacheSize(0)).withChannel();
        engine = harness.engine;
        boolean createPermission = "createPermission".equals(request);
        byte[] bytes = createPermission ? harness.signedCreatePermission : harness.signedChannelBind;
        method = createPermission ? StunMethod.CREATE_PERMISSION : StunMethod.CHANNEL_BIND;
        length = bytes.length;
        // Direct memory, as the transport hands the engine Netty's direct buffers.
        message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        message.putBytes(0, bytes);
        answeredBefore = harness.transport.sentToClient;
        requestsBefore = engine.counters().requests(method);
        errorsBefore = errorResponses();
    }

    private long errorResponses() {
        long n = 0;
        for (int code : TurnCounters.errorCodes()) {
            n += engine.counters().errors(code);
        }
        return n;
    }

    /** Fails unless every request was processed and answered without an error response. */
    @TearDown(Level.Trial)
    public void check() {
        harness.checkNothingDropped();
        long requests = engine.counters().requests(method) - requestsBefore;
        long answers = harness.transport.sentToClient - answeredBefore;
        if (requests == 0 || answers != requests) {
            throw new IllegalStateException(requests + " requests, " + answers + " answers");
        }
        if (errorResponses() != errorsBefore) {
            throw new IllegalStateException((errorResponses() - errorsBefore) + " error responses");
        }
    }

    @Benchmark
    public void signedRequest() {
        harness.fromClient(message, 0, length);
    }
}
