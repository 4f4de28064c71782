package io.tern.hls.testing;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.HexFormat;
import java.util.List;

/** Real codec configurations (captured from libx264 and ffmpeg's AAC encoder) and synthetic frames. */
public final class TestMedia {
    /** libx264 High profile 1280x720, 30 fps VUI timing. */
    public static final byte[] SPS_720P = HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950");

    public static final byte[] PPS_720P = HexFormat.of().parseHex("68ef0fcb");
    /** libx264 Baseline 640x360, 25 fps. */
    public static final byte[] SPS_360P = HexFormat.of().parseHex("6742c01ed900a02ff97011000003000100000300320f162e48");

    public static final byte[] PPS_360P = HexFormat.of().parseHex("68cb83cb20");
    /** AAC-LC, 48 kHz, stereo. */
    public static final byte[] ASC_48K_STEREO = {0x11, (byte) 0x90};
    /** AAC-LC, 44.1 kHz, mono. */
    public static final byte[] ASC_44K_MONO = {0x12, 0x08};

    private TestMedia() {}

    public static AvcConfig avc720p() {
        try {
            return AvcConfig.fromParameterSets(List.of(SPS_720P), List.of(PPS_720P));
        } catch (MediaFormatException e) {
            throw new AssertionError(e);
        }
    }

    public static AvcConfig avc360p() {
        try {
            return AvcConfig.fromParameterSets(List.of(SPS_360P), List.of(PPS_360P));
        } catch (MediaFormatException e) {
            throw new AssertionError(e);
        }
    }

    public static AacConfig aac48k() {
        return aac(ASC_48K_STEREO);
    }

    public static AacConfig aac44k() {
        return aac(ASC_44K_MONO);
    }

    private static AacConfig aac(byte[] asc) {
        try {
            return AacConfig.parse(asc, 0, asc.length);
        } catch (MediaFormatException e) {
            throw new AssertionError(e);
        }
    }

    /** A video frame of {@code size} bytes: one length-prefixed NAL unit, bytes derived from {@code seed}. */
    public static AccessUnit video(long dts, long pts, boolean keyframe, int size, int seed) {
        byte[] data = new byte[Math.max(size, 5)];
        int nal = data.length - 4;
        data[0] = (byte) (nal >>> 24);
        data[1] = (byte) (nal >>> 16);
        data[2] = (byte) (nal >>> 8);
        data[3] = (byte) nal;
        data[4] = (byte) (keyframe ? 0x65 : 0x41);
        for (int i = 5; i < data.length; i++) {
            data[i] = (byte) (seed * 31 + i);
        }
        return new AccessUnit(TrackType.VIDEO, dts, pts, keyframe, data);
    }

    public static AccessUnit audio(long dts, int size, int seed) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (seed * 17 + i);
        }
        return new AccessUnit(TrackType.AUDIO, dts, dts, true, data);
    }
}
