package io.tern.bench.origin.testing;

import io.tern.bench.jmh.hls.HlsStream;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.media.TrackType;
import java.nio.charset.StandardCharsets;

/**
 * Real Tern playlists: tern-hls's packager fed a synthetic 30 fps stream with 48 kHz AAC, 1 s
 * GOPs ({@link HlsStream}), configured as the benchmark runs Tern (1 s segments, 200 ms parts),
 * in simulated time from the first frame. URIs are those the origin serves under
 * {@code /live/stream/}.
 */
public final class TernPlaylists {
    public static final String BASE = "/live/stream/";
    public static final String INSTANCE = "i1";

    private final HlsStream stream = new HlsStream(
            PackagerConfig.defaults(INSTANCE)
                    .withSegmentTargetMs(1000)
                    .withPartTargetMs(200)
                    .withRenditions(RenditionMode.SEPARATE), // a video playlist and an audio one to parse
            500,
            0);

    /** Feeds {@code frames} video frames (and the audio due before each), 33.3 ms apart. */
    public TernPlaylists advance(int frames) {
        for (int i = 0; i < frames; i++) {
            stream.nextVideo();
        }
        return this;
    }

    public String multivariant() {
        return ready(stream.packager().multivariantPlaylist(stream.nowNs()));
    }

    /** The video playlist; {@code query} as a player sends it ("" for a plain reload, "_HLS_skip=YES"). */
    public String video(String query) {
        return ready(stream.packager()
                .mediaPlaylist(TrackType.VIDEO, PlaylistRequest.parse(query).request(), stream.nowNs()));
    }

    public String audio(String query) {
        return ready(stream.packager()
                .mediaPlaylist(TrackType.AUDIO, PlaylistRequest.parse(query).request(), stream.nowNs()));
    }

    public static String videoPath() {
        return BASE + INSTANCE + "/video.m3u8";
    }

    public static String audioPath() {
        return BASE + INSTANCE + "/audio.m3u8";
    }

    private static String ready(PlaylistAnswer a) {
        if (a instanceof PlaylistAnswer.Ready r) {
            return new String(r.body(), StandardCharsets.ISO_8859_1);
        }
        throw new IllegalStateException("the packager did not answer at once: " + a);
    }
}
