package io.tern.hls.mp4;

import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import java.util.Objects;

/**
 * One track of an fMP4 file: its ID, its media timescale and its decoder configuration.
 *
 * <p>Video runs at 90 kHz, the ingest's own clock, so no timestamp is ever rounded. Audio runs at
 * its sample rate, so frame durations are whole sample counts and audio cannot drift. The IDs
 * are fixed per kind ({@link #VIDEO_TRACK_ID}, {@link #AUDIO_TRACK_ID}) so that the same fragment
 * bytes are valid both in a one-track HLS rendition and in a two-track recording.
 */
public record Mp4Track(int trackId, int timescale, CodecConfig config) {
    public static final int VIDEO_TRACK_ID = 1;
    public static final int AUDIO_TRACK_ID = 2;
    public static final int VIDEO_TIMESCALE = 90_000;

    public Mp4Track {
        Objects.requireNonNull(config, "config");
        if (trackId <= 0 || timescale <= 0) {
            throw new IllegalArgumentException("track " + trackId + " timescale " + timescale);
        }
    }

    public static Mp4Track video(AvcConfig config) {
        return new Mp4Track(VIDEO_TRACK_ID, VIDEO_TIMESCALE, config);
    }

    public static Mp4Track audio(AacConfig config) {
        return new Mp4Track(AUDIO_TRACK_ID, config.sampleRateHz(), config);
    }

    public static Mp4Track of(CodecConfig config) {
        return switch (config) {
            case AvcConfig avc -> video(avc);
            case AacConfig aac -> audio(aac);
        };
    }

    public TrackType type() {
        return config.track();
    }
}
