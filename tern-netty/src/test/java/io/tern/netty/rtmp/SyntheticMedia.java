package io.tern.netty.rtmp;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/** A stream without an encoder: real 720p parameter sets, slices of filler bytes, AAC-LC frames. */
final class SyntheticMedia {
    static final AvcConfig AVC;
    static final AacConfig AAC;

    static {
        try {
            AVC = AvcConfig.fromParameterSets(
                    List.of(HexFormat.of().parseHex("6764001facb402802dd80880000003008000001e478c1950")),
                    List.of(HexFormat.of().parseHex("68ef0fcb")));
            AAC = AacConfig.parse(new byte[] {0x11, (byte) 0x90}, 0, 2);
        } catch (MediaFormatException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private SyntheticMedia() {}

    static AccessUnit video(long dtsMs, boolean key, int bytes) {
        byte[] data = new byte[4 + bytes];
        Arrays.fill(data, (byte) dtsMs);
        data[0] = (byte) (bytes >>> 24);
        data[1] = (byte) (bytes >>> 16);
        data[2] = (byte) (bytes >>> 8);
        data[3] = (byte) bytes;
        data[4] = (byte) (key ? 0x65 : 0x41);
        return new AccessUnit(TrackType.VIDEO, dtsMs * 90, dtsMs * 90, key, data);
    }

    static AccessUnit audio(long dtsMs) {
        byte[] data = new byte[200];
        Arrays.fill(data, (byte) dtsMs);
        return new AccessUnit(TrackType.AUDIO, dtsMs * 90, dtsMs * 90, true, data);
    }
}
