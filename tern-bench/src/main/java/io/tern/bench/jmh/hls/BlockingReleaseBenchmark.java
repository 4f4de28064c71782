package io.tern.bench.jmh.hls;

import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.playlist.SkipRequest;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.media.TrackType;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The packager's side of a blocked-reload release, per released request: {@value #HELD} viewers
 * hold a blocking reload ({@code _HLS_msn}/{@code _HLS_part}, delta update) of the video playlist
 * for the next part, then frames arrive until that part is listed and one {@code PlaylistReady}
 * event releases them all. The playlist is rendered once for the version and every ticket gets
 * the same array, so ns/op and B/op are the release's cost spread over the viewers; both include
 * packaging the part's ~6 frames (and their audio), about 10 KB of chunk arrays per invocation,
 * ~10 B per released request. The HTTP side of each answer is {@code SharedBodyServingBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1)
public class BlockingReleaseBenchmark {
    static final int HELD = 750;

    private HlsStream stream;

    @Setup(Level.Trial)
    public void setUp() {
        stream = new HlsStream(1500);
    }

    /** Holds {@link #HELD} reloads for the part after the last one listed. */
    @Setup(Level.Invocation)
    public void hold() {
        long[] next = nextPart();
        PlaylistRequest request = new PlaylistRequest(next[0], next[1], SkipRequest.YES);
        for (int i = 0; i < HELD; i++) {
            PlaylistAnswer answer = stream.packager.mediaPlaylist(TrackType.VIDEO, request, stream.nowNs);
            if (!(answer instanceof PlaylistAnswer.Wait)) {
                throw new IllegalStateException("expected a held reload for " + request + ", got " + answer);
            }
        }
        stream.releasedTickets = 0;
    }

    @Benchmark
    @OperationsPerInvocation(HELD)
    public long release() {
        for (int frames = 0; stream.releasedTickets < HELD; frames++) {
            if (frames > 60) {
                throw new IllegalStateException("released " + stream.releasedTickets + " of " + HELD);
            }
            stream.nextVideo();
        }
        return stream.releasedTickets;
    }

    /** {msn, part} of the part after the last listed in the video playlist. */
    private long[] nextPart() {
        String text = new String(
                stream.packager.renderMediaPlaylist(TrackType.VIDEO, SkipRequest.NONE), StandardCharsets.US_ASCII);
        long msn = -1;
        long parts = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#EXT-X-MEDIA-SEQUENCE:")) {
                msn = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("#EXTINF:")) {
                msn++;
                parts = 0;
            } else if (line.startsWith("#EXT-X-PART:")) {
                parts++;
            }
        }
        return new long[] {msn, parts};
    }
}
