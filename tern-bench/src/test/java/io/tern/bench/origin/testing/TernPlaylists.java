package io.tern.bench.origin.testing;

import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * Real Tern playlists: tern-hls's packager fed a synthetic 30 fps stream with 48 kHz AAC, 1 s
 * GOPs, configured as the benchmark runs Tern (1 s segments, 200 ms parts), in simulated time.
 * Playlists are rendered the way the origin serves them, under {@code /live/stream/}.
 */
public final class TernPlaylists {
    public static final String BASE = "/live/stream/";
    public static final String INSTANCE = "i1";

    private final LlHlsPackager packager;
    private final byte[] keyframe = nal(2000, 0x65);
    private final byte[] frame = nal(500, 0x41);
    private final byte[] audioFrame = new byte[300];
    private long videoIndex;
    private long audioIndex;
    private long nowNs = 1_000_000_000L;
    private long wallMs = 1_764_619_200_000L;

    public TernPlaylists() {
        packager = new LlHlsPackager(
                PackagerConfig.defaults(INSTANCE).withSegmentTargetMs(1000).withPartTargetMs(200),
                StreamLayout.VIDEO_AND_AUDIO,
                () -> wallMs);
        try {
            byte[] sps = HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950");
            byte[] pps = HexFormat.of().parseHex("68ef0fcb");
            packager.onConfig(AvcConfig.fromParameterSets(List.of(sps), List.of(pps)), nowNs);
            packager.onConfig(AacConfig.parse(new byte[] {0x11, (byte) 0x90}, 0, 2), nowNs);
        } catch (MediaFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] nal(int size, int header) {
        byte[] b = new byte[size];
        int n = size - 4;
        b[0] = (byte) (n >>> 24);
        b[1] = (byte) (n >>> 16);
        b[2] = (byte) (n >>> 8);
        b[3] = (byte) n;
        b[4] = (byte) header;
        return b;
    }

    /** Feeds {@code frames} video frames (and the audio due before each), 33.3 ms apart. */
    public TernPlaylists advance(int frames) {
        for (int i = 0; i < frames; i++) {
            long dts = videoIndex * 3000;
            while (audioIndex * 1920 <= dts) {
                long a = audioIndex++ * 1920;
                packager.onAccessUnit(new AccessUnit(TrackType.AUDIO, a, a, true, audioFrame), nowNs);
                drain();
            }
            boolean key = videoIndex % 30 == 0;
            packager.onAccessUnit(new AccessUnit(TrackType.VIDEO, dts, dts + 3000, key, key ? keyframe : frame), nowNs);
            drain();
            videoIndex++;
            nowNs += 33_333_333;
            wallMs += 33;
        }
        return this;
    }

    private void drain() {
        while (packager.pollEvent() != null) {
            // events are the adapter's business; the playlists are what these tests read
        }
    }

    public String multivariant() {
        return ready(packager.multivariantPlaylist(nowNs));
    }

    /** The video playlist; {@code query} as a player sends it ("" for a plain reload, "_HLS_skip=YES"). */
    public String video(String query) {
        return ready(packager.mediaPlaylist(TrackType.VIDEO, query, nowNs));
    }

    public String audio(String query) {
        return ready(packager.mediaPlaylist(TrackType.AUDIO, query, nowNs));
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
