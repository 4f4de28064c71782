package io.tern.hls.packager;

import io.tern.media.TrackType;

/**
 * Which tracks a stream carries, as the ingest declares it (RTMP's metadata, MPEG-TS's PMT). The
 * packager serves the multivariant playlist only once every declared track has a configuration,
 * and a track that is not declared is ignored.
 */
public enum StreamLayout {
    VIDEO_AND_AUDIO(true, true),
    VIDEO_ONLY(true, false),
    AUDIO_ONLY(false, true);

    private final boolean video;
    private final boolean audio;

    StreamLayout(boolean video, boolean audio) {
        this.video = video;
        this.audio = audio;
    }

    public boolean hasVideo() {
        return video;
    }

    public boolean hasAudio() {
        return audio;
    }

    public boolean has(TrackType track) {
        return track == TrackType.VIDEO ? video : audio;
    }

    /** The track that decides where segments are cut: video when there is one. */
    public TrackType leader() {
        return video ? TrackType.VIDEO : TrackType.AUDIO;
    }
}
