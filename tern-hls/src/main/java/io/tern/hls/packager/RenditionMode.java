package io.tern.hls.packager;

/** How a stream with video and audio is served: one rendition per track, or one for both. */
public enum RenditionMode {
    /**
     * Video and audio as separate renditions, each with its own media playlist, init segment,
     * parts and segments; the multivariant playlist names audio as an {@code EXT-X-MEDIA} group.
     */
    SEPARATE,
    /**
     * Video and audio in one rendition: one media playlist, a two-track init segment, and parts
     * and segments whose fragments carry both tracks, so a viewer makes half the requests.
     */
    MUXED
}
