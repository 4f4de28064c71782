package io.tern.hls.media;

import io.tern.media.TrackType;

/** HTTP content types of what the packager serves. */
public final class ContentTypes {
    public static final String PLAYLIST = "application/vnd.apple.mpegurl";
    public static final String VIDEO = "video/mp4";
    public static final String AUDIO = "audio/mp4";

    private ContentTypes() {}

    public static String of(TrackType track) {
        return track == TrackType.VIDEO ? VIDEO : AUDIO;
    }
}
