package io.tern.bench.jmh.hls;

import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.playlist.SkipRequest;
import io.tern.hls.swarm.OriginKey;
import io.tern.hls.swarm.StreamSigner;
import io.tern.media.TrackType;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
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
 * The serving path with the swarm on and off (issue 25: signing allocates nothing per request):
 * a viewer's reload of the media playlist between two parts (the rendered bytes, attestations
 * included, shared from the cache) and a request for the newest part; the attestations are made
 * once per object as it completes and written into the playlist once per change, never per request.
 * {@code renderFull} is that once-per-change cost, for scale.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1)
public class SwarmServingBenchmark {
    @Param({"false", "true"})
    public boolean signed;

    private HlsStream stream;
    private String newestPart;

    @Setup
    public void setUp() {
        StreamSigner signer = null;
        if (signed) {
            signer = new StreamSigner(
                    OriginKey.fromSeed(new byte[32]),
                    "bench",
                    "i-1",
                    new SecureRandom(),
                    StreamSigner.DEFAULT_SESSION_LIFETIME_S);
        }
        stream = new HlsStream(
                PackagerConfig.defaults("bench").withRenditions(RenditionMode.SEPARATE), 1500, 40 * 30, signer);
        String playlist = new String(
                stream.packager.renderMediaPlaylist(TrackType.VIDEO, SkipRequest.NONE), StandardCharsets.UTF_8);
        if (signed != playlist.contains("#EXT-X-TERN-ATTEST:KIND=part")) {
            throw new IllegalStateException("signed=" + signed + " but the playlist is:\n" + playlist);
        }
        int uri = playlist.lastIndexOf("#EXT-X-PART:");
        int start = playlist.indexOf("URI=\"", uri) + 5;
        newestPart = playlist.substring(start, playlist.indexOf('"', start));
        if (stream.packager.object(newestPart, stream.nowNs) == null) {
            throw new IllegalStateException("no object " + newestPart);
        }
    }

    @Benchmark
    public Object viewerReload() {
        return stream.packager.mediaPlaylist(TrackType.VIDEO, PlaylistRequest.PLAIN, stream.nowNs);
    }

    @Benchmark
    public Object newestPart() {
        return stream.packager.object(newestPart, stream.nowNs);
    }

    @Benchmark
    public byte[] renderFull() {
        return stream.packager.renderMediaPlaylist(TrackType.VIDEO, SkipRequest.NONE);
    }
}
