package io.tern.bench.jmh.hls;

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
 * Appending samples to the LL-HLS packager: one 30 fps video frame (and the AAC frames due with
 * it, about 1.6) per operation, through chunk writing, part and segment cuts, window trimming
 * and the adapter's event drain. B/op includes the chunk itself, one array holding the frame
 * ({@code frameBytes}, 4x for keyframes) plus about 120 B of boxes: what remains above that is the
 * packager's own overhead per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1)
public class PackagerBenchmark {
    @Param({"1500", "12000"})
    int frameBytes;

    private HlsStream stream;

    @Setup(Level.Iteration)
    public void setUp() {
        stream = new HlsStream(frameBytes);
    }

    @Benchmark
    public long appendFrameWithAudio() {
        stream.nextVideo();
        return stream.nowNs;
    }
}
