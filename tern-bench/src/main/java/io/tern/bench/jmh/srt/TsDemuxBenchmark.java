package io.tern.bench.jmh.srt;

import io.tern.media.AccessUnit;
import io.tern.media.ts.TsDemuxer;
import io.tern.testkit.FfmpegSource;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * MPEG-TS demux per SRT payload (7 TS packets) of a real ffmpeg stream (720p30 x264 + AAC, made
 * by ffmpeg at setup). Allocation per op is the access units' own payload arrays, amortised.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class TsDemuxBenchmark {
    private byte[] ts;
    private int offset;
    private TsDemuxer demuxer;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Path file = Files.createTempFile("tern-bench", ".ts");
        Process p = new ProcessBuilder(FfmpegSource.file("ffmpeg")
                        .defaultAudioBitrate()
                        .seconds(4)
                        .format("mpegts")
                        .command(file.toString()))
                .inheritIO()
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("ffmpeg failed");
        }
        byte[] all = Files.readAllBytes(file);
        ts = java.util.Arrays.copyOf(all, all.length / 1316 * 1316);
        Files.delete(file);
        demuxer = new TsDemuxer();
    }

    @Benchmark
    public int srtPayload() {
        if (offset == ts.length) {
            offset = 0;
            // A new demuxer per loop of the file: the timestamps jump back where the file restarts.
            demuxer = new TsDemuxer();
        }
        demuxer.feed(ts, offset, 1316);
        offset += 1316;
        int n = 0;
        for (AccessUnit u; (u = demuxer.poll()) != null; ) {
            n += u.sizeBytes();
        }
        return n;
    }
}
