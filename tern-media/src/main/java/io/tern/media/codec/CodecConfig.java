package io.tern.media.codec;

import io.tern.media.TrackType;

/** The decoder configuration of one track: what a player needs before the first frame. */
public sealed interface CodecConfig permits AvcConfig, AacConfig {
    TrackType track();

    /** The RFC 6381 CODECS value for playlists, e.g. {@code avc1.64001f} or {@code mp4a.40.2}. */
    String codecs();
}
