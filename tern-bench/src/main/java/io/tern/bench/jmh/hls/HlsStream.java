package io.tern.bench.jmh.hls;

import io.tern.hls.media.HeapChunkStore;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.PackagerConfig;
import io.tern.hls.packager.RenditionMode;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.swarm.StreamSigner;
import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.HexFormat;
import java.util.List;

/**
 * A packager fed like a live 720p30 stream with 48 kHz AAC (1 s GOPs; by default 200 ms parts
 * and 2 s segments, already past its first playlist window so that windows trim and objects
 * expire as they do in steady state), in simulated time. Frames share payload arrays, as an
 * ingest's would be its own. Also the origin benchmark's source of real Tern playlists in tests.
 */
public final class HlsStream {
    static final int VIDEO_TICKS = 3000;
    static final long AUDIO_TICKS_X3 = 5760; // three AAC frames at 48 kHz, 90 kHz ticks

    final LlHlsPackager packager;
    private final byte[] keyframe;
    private final byte[] frame;
    private final byte[] audioFrame;
    private long videoIndex;
    private long audioIndex;
    long nowNs = 1_000_000_000L;
    long wallMs = 1_764_619_200_000L;
    /** Held playlist requests the events drained so far released. */
    long releasedTickets;

    HlsStream(int frameBytes) {
        // 40 s: the 24 s window is full and trimming; separate renditions, as the recorded results were measured
        this(PackagerConfig.defaults("bench").withRenditions(RenditionMode.SEPARATE), frameBytes, 40 * 30);
    }

    /** A stream packaged with {@code config}, {@code initialFrames} video frames in. */
    public HlsStream(PackagerConfig config, int frameBytes, int initialFrames) {
        this(config, frameBytes, initialFrames, null);
    }

    /** As {@link #HlsStream(PackagerConfig, int, int)}, every object attested by {@code signer} (or none if null). */
    public HlsStream(PackagerConfig config, int frameBytes, int initialFrames, StreamSigner signer) {
        packager = new LlHlsPackager(config, StreamLayout.VIDEO_AND_AUDIO, () -> wallMs, new HeapChunkStore(), signer);
        try {
            byte[] sps = HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950");
            byte[] pps = HexFormat.of().parseHex("68ef0fcb");
            packager.onConfig(AvcConfig.fromParameterSets(List.of(sps), List.of(pps)), nowNs);
            packager.onConfig(AacConfig.parse(new byte[] {0x11, (byte) 0x90}, 0, 2), nowNs);
        } catch (MediaFormatException e) {
            throw new IllegalStateException(e);
        }
        keyframe = nal(frameBytes * 4, 0x65);
        frame = nal(frameBytes, 0x41);
        audioFrame = new byte[370];
        for (int i = 0; i < initialFrames; i++) {
            nextVideo();
        }
    }

    public LlHlsPackager packager() {
        return packager;
    }

    /** The simulated time after the last frame fed. */
    public long nowNs() {
        return nowNs;
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

    /** One video frame, and the audio frames due before it, with the adapter's drain. */
    public void nextVideo() {
        long dts = videoIndex * VIDEO_TICKS;
        while (audioIndex * 1920 <= dts) {
            long a = audioIndex++ * 1920;
            packager.onAccessUnit(new AccessUnit(TrackType.AUDIO, a, a, true, audioFrame), nowNs);
            drain();
        }
        boolean key = videoIndex % 30 == 0;
        packager.onAccessUnit(
                new AccessUnit(TrackType.VIDEO, dts, dts + VIDEO_TICKS, key, key ? keyframe : frame), nowNs);
        drain();
        videoIndex++;
        nowNs += 33_333_333;
        wallMs += 33;
    }

    /** One video frame alone (audio is fed by {@link #nextVideo}). */
    void videoOnly() {
        long dts = videoIndex * VIDEO_TICKS;
        boolean key = videoIndex % 30 == 0;
        packager.onAccessUnit(
                new AccessUnit(TrackType.VIDEO, dts, dts + VIDEO_TICKS, key, key ? keyframe : frame), nowNs);
        drain();
        videoIndex++;
        nowNs += 33_333_333;
    }

    int drain() {
        int n = 0;
        for (HlsEvent event; (event = packager.pollEvent()) != null; ) {
            if (event instanceof HlsEvent.PlaylistReady ready) {
                releasedTickets += ready.tickets().length;
            }
            n++;
        }
        return n;
    }
}
