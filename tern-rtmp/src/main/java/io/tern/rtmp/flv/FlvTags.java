package io.tern.rtmp.flv;

import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import io.tern.rtmp.bytes.ByteWriter;

/**
 * FLV audio and video tag bodies (FLV specification 10.1, E.4.2 and E.4.3), as RTMP carries them
 * in audio (8) and video (9) messages: the codec header bytes, then the payload.
 */
public final class FlvTags {
    public static final int TAG_AUDIO = 8;
    public static final int TAG_VIDEO = 9;
    public static final int TAG_SCRIPT = 18;

    public static final int VIDEO_CODEC_AVC = 7;
    public static final int AUDIO_FORMAT_AAC = 10;
    /** Enhanced RTMP v2: an audio tag whose FourCC follows (SoundFormat 9, "ExHeader"). */
    public static final int AUDIO_FORMAT_EX_HEADER = 9;
    /** Enhanced RTMP: the top bit of a video tag's first byte announces a FourCC. */
    public static final int VIDEO_EX_HEADER = 0x80;

    public static final int FRAME_KEY = 1;
    public static final int FRAME_INTER = 2;
    public static final int FRAME_COMMAND = 5;

    public static final int AVC_SEQUENCE_HEADER = 0;
    public static final int AVC_NALU = 1;
    public static final int AVC_END_OF_SEQUENCE = 2;
    public static final int AAC_SEQUENCE_HEADER = 0;
    public static final int AAC_RAW = 1;

    /** AAC's sound byte: format 10, and the fixed "44 kHz, 16-bit, stereo" bits the specification demands for AAC. */
    private static final int AAC_SOUND_BYTE = (AUDIO_FORMAT_AAC << 4) | 0x0F;

    private FlvTags() {}

    /** The sequence header tag body for a configuration. */
    public static void writeConfig(ByteWriter out, CodecConfig config) {
        switch (config) {
            case AvcConfig avc ->
                out.u8((FRAME_KEY << 4) | VIDEO_CODEC_AVC)
                        .u8(AVC_SEQUENCE_HEADER)
                        .u24(0)
                        .bytes(avc.record());
            case AacConfig aac -> out.u8(AAC_SOUND_BYTE).u8(AAC_SEQUENCE_HEADER).bytes(aac.audioSpecificConfig());
        }
    }

    /** The tag body for one access unit; the composition offset is rounded to milliseconds. */
    public static void writeAccessUnit(ByteWriter out, AccessUnit unit) {
        if (unit.track() == TrackType.VIDEO) {
            int ctsMs = (int) Math.round(unit.compositionOffset() / 90.0);
            out.u8(((unit.keyframe() ? FRAME_KEY : FRAME_INTER) << 4) | VIDEO_CODEC_AVC)
                    .u8(AVC_NALU)
                    .u24(ctsMs)
                    .bytes(unit.data());
        } else {
            out.u8(AAC_SOUND_BYTE).u8(AAC_RAW).bytes(unit.data());
        }
    }

    /** The message type that carries a track's tags. */
    public static int messageType(TrackType track) {
        return track == TrackType.VIDEO ? TAG_VIDEO : TAG_AUDIO;
    }

    static String videoCodecName(int codecId) {
        return switch (codecId) {
            case 2 -> "Sorenson H.263";
            case 3 -> "Screen video";
            case 4 -> "On2 VP6";
            case 5 -> "On2 VP6 with alpha";
            case 6 -> "Screen video 2";
            case 12 -> "HEVC (non-standard codec id 12)";
            default -> "codec id " + codecId;
        };
    }

    static String audioFormatName(int format) {
        return switch (format) {
            case 0, 3 -> "linear PCM";
            case 1 -> "ADPCM";
            case 2 -> "MP3";
            case 4, 5, 6 -> "Nellymoser";
            case 7 -> "G.711 A-law";
            case 8 -> "G.711 mu-law";
            case 11 -> "Speex";
            case 14 -> "MP3 8 kHz";
            default -> "sound format " + format;
        };
    }
}
