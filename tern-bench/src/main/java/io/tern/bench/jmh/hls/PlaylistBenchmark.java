package io.tern.bench.jmh.hls;

import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.playlist.SkipRequest;
import io.tern.media.TrackType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Playlists of a stream in steady state (24 s window, 12 segments, parts of the last two):
 * rendering one afresh (allocates its output, nothing per segment), and what each viewer's
 * reload costs between two parts: the rendered bytes shared from the cache, no copy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1)
public class PlaylistBenchmark {
    private HlsStream stream;

    @Setup
    public void setUp() {
        stream = new HlsStream(1500);
    }

    @Benchmark
    public byte[] renderFull() {
        return stream.packager.renderMediaPlaylist(TrackType.VIDEO, SkipRequest.NONE);
    }

    @Benchmark
    public byte[] renderDelta() {
        return stream.packager.renderMediaPlaylist(TrackType.VIDEO, SkipRequest.YES);
    }

    @Benchmark
    public Object viewerReload() {
        return stream.packager.mediaPlaylist(TrackType.VIDEO, PlaylistRequest.PLAIN, stream.nowNs);
    }
}
