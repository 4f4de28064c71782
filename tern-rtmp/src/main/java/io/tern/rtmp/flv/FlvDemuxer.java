package io.tern.rtmp.flv;

import io.tern.media.AccessUnit;
import io.tern.media.MediaFormatException;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import io.tern.media.codec.NalUnits;
import io.tern.rtmp.bytes.BigEndian;
import java.util.Arrays;

/**
 * Turns one publisher's FLV audio and video tags into configurations and access units: H.264
 * (AVC sequence header, NAL units with composition time) and AAC (sequence header, raw frames).
 * Each tag gives at most one output. A malformed tag, or a frame before its track's sequence
 * header, is dropped and counted; a codec Tern does not ingest is refused, which ends the publish.
 *
 * <p>Timestamps are extended per track from RTMP's 32-bit milliseconds to 90 kHz ticks. A DTS
 * that goes back or jumps forward by more than {@code maxGapMs} is reported before its access
 * unit, which keeps its timestamps: the packager decides what a discontinuity means.
 */
public final class FlvDemuxer {

    /** Where the demuxer's results go; called during {@link #video} and {@link #audio}. */
    public interface Output {
        void config(CodecConfig config);

        void accessUnit(AccessUnit unit);

        void discontinuity(TrackType track, long previousDts, long dts, boolean backwards);

        void dropped(String reason);
    }

    private final Output output;
    private final long maxGapTicks;
    private TrackTimeline videoTime = new TrackTimeline();
    private TrackTimeline audioTime = new TrackTimeline();
    private AvcConfig avc;
    private AacConfig aac;
    private long lastVideoDts = Long.MIN_VALUE;
    private long lastAudioDts = Long.MIN_VALUE;

    private long videoFrames;
    private long keyframes;
    private long audioFrames;
    private long dropped;
    private long discontinuities;
    private long negativeCompositionOffsets;

    public FlvDemuxer(Output output, long maxGapMs) {
        this.output = output;
        this.maxGapTicks = MediaTime.fromMillis(maxGapMs);
    }

    /** Forgets the configurations and timelines, for the next publish on the same connection; counters stay. */
    public void reset() {
        avc = null;
        aac = null;
        videoTime = new TrackTimeline();
        audioTime = new TrackTimeline();
        lastVideoDts = Long.MIN_VALUE;
        lastAudioDts = Long.MIN_VALUE;
    }

    /**
     * One video tag body, {@code buf[offset, offset + length)}, with its message timestamp.
     *
     * @return null, or why the stream is refused (a codec Tern does not ingest)
     */
    public String video(long timestamp32, byte[] buf, int offset, int length) {
        if (length == 0) {
            return null;
        }
        int first = buf[offset] & 0xFF;
        if ((first & FlvTags.VIDEO_EX_HEADER) != 0) {
            return "Enhanced RTMP video" + fourCc(buf, offset, length)
                    + " is not supported; publish H.264 (FLV codec id 7)";
        }
        int frameType = first >>> 4;
        int codecId = first & 0x0F;
        if (codecId != FlvTags.VIDEO_CODEC_AVC) {
            return "video " + FlvTags.videoCodecName(codecId) + " is not supported; publish H.264";
        }
        if (frameType == FlvTags.FRAME_COMMAND) {
            return null;
        }
        if (length < 5) {
            return drop("AVC tag of " + length + " bytes");
        }
        int packetType = buf[offset + 1] & 0xFF;
        switch (packetType) {
            case FlvTags.AVC_SEQUENCE_HEADER -> {
                try {
                    AvcConfig config = AvcConfig.parseRecord(buf, offset + 5, length - 5);
                    if (!config.equals(avc)) {
                        avc = config;
                        output.config(config);
                    }
                } catch (MediaFormatException e) {
                    return drop("AVC sequence header: " + e.getMessage());
                }
            }
            case FlvTags.AVC_NALU -> {
                if (avc == null) {
                    return drop("video frame before the AVC sequence header");
                }
                byte[] data;
                try {
                    data = NalUnits.toAccessUnitForm(buf, offset + 5, length - 5, avc.sourceNalLengthSize());
                } catch (MediaFormatException e) {
                    return drop("video frame: " + e.getMessage());
                }
                if (data.length == 0) {
                    return drop("video frame without NAL units");
                }
                long dts = MediaTime.fromMillis(videoTime.extend(timestamp32));
                int ctsMs = BigEndian.s24(buf, offset + 2);
                if (ctsMs < 0) {
                    negativeCompositionOffsets++;
                    ctsMs = 0;
                }
                boolean key = NalUnits.containsIdr(data);
                lastVideoDts = checkContinuity(TrackType.VIDEO, lastVideoDts, dts);
                videoFrames++;
                if (key) {
                    keyframes++;
                }
                output.accessUnit(new AccessUnit(TrackType.VIDEO, dts, dts + MediaTime.fromMillis(ctsMs), key, data));
            }
            case FlvTags.AVC_END_OF_SEQUENCE -> {
                // Sent by some encoders when they stop; the end of the publish says the same.
            }
            default -> {
                return drop("AVC packet type " + packetType);
            }
        }
        return null;
    }

    /**
     * One audio tag body, {@code buf[offset, offset + length)}, with its message timestamp.
     *
     * @return null, or why the stream is refused
     */
    public String audio(long timestamp32, byte[] buf, int offset, int length) {
        if (length == 0) {
            return null;
        }
        int format = (buf[offset] & 0xFF) >>> 4;
        if (format == FlvTags.AUDIO_FORMAT_EX_HEADER) {
            return "Enhanced RTMP audio" + fourCc(buf, offset, length)
                    + " is not supported; publish AAC (FLV sound format 10)";
        }
        if (format != FlvTags.AUDIO_FORMAT_AAC) {
            return "audio " + FlvTags.audioFormatName(format) + " is not supported; publish AAC";
        }
        if (length < 2) {
            return drop("AAC tag of 1 byte");
        }
        int packetType = buf[offset + 1] & 0xFF;
        if (packetType == FlvTags.AAC_SEQUENCE_HEADER) {
            try {
                AacConfig config = AacConfig.parse(buf, offset + 2, length - 2);
                if (!config.equals(aac)) {
                    aac = config;
                    output.config(config);
                }
            } catch (MediaFormatException e) {
                return drop("AAC sequence header: " + e.getMessage());
            }
            return null;
        }
        if (packetType != FlvTags.AAC_RAW) {
            return drop("AAC packet type " + packetType);
        }
        if (aac == null) {
            return drop("audio frame before the AAC sequence header");
        }
        if (length == 2) {
            return drop("empty AAC frame");
        }
        long dts = MediaTime.fromMillis(audioTime.extend(timestamp32));
        lastAudioDts = checkContinuity(TrackType.AUDIO, lastAudioDts, dts);
        audioFrames++;
        output.accessUnit(
                new AccessUnit(TrackType.AUDIO, dts, dts, true, Arrays.copyOfRange(buf, offset + 2, offset + length)));
        return null;
    }

    private long checkContinuity(TrackType track, long previous, long dts) {
        if (previous != Long.MIN_VALUE && (dts < previous || dts - previous > maxGapTicks)) {
            discontinuities++;
            output.discontinuity(track, previous, dts, dts < previous);
        }
        return dts;
    }

    private String drop(String reason) {
        dropped++;
        output.dropped(reason);
        return null;
    }

    private static String fourCc(byte[] buf, int offset, int length) {
        if (length < 5) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" (FourCC '");
        for (int i = 1; i < 5; i++) {
            int c = buf[offset + i] & 0xFF;
            sb.append(c >= 0x20 && c < 0x7F ? (char) c : '?');
        }
        return sb.append("')").toString();
    }

    public AvcConfig videoConfig() {
        return avc;
    }

    public AacConfig audioConfig() {
        return aac;
    }

    public long videoFrames() {
        return videoFrames;
    }

    public long keyframes() {
        return keyframes;
    }

    public long audioFrames() {
        return audioFrames;
    }

    /** Tags dropped as malformed or out of order. */
    public long dropped() {
        return dropped;
    }

    public long discontinuities() {
        return discontinuities;
    }

    /** Frames whose negative composition offset was raised to 0 (an access unit's PTS never precedes its DTS). */
    public long negativeCompositionOffsets() {
        return negativeCompositionOffsets;
    }
}
