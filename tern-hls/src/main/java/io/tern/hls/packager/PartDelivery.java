package io.tern.hls.packager;

/**
 * How a request for a part that is still being written (the preload-hinted part) is answered.
 *
 * <p>draft-pantos-hls-rfc8216bis-22 §6.2.6 says the server MUST NOT send any byte of a partial
 * segment until all of it can be sent at the full speed of the link, so that clients measure the
 * link and not the encoder ({@link #WHOLE_PART}). Tern's origin streams the part chunk by chunk as
 * samples arrive instead ({@link #STREAM_CHUNKS}), which gets bytes to the player earlier; with one
 * variant there is no bitrate switching for a slow-looking download to mislead. In both modes the
 * bytes are exactly those later served for the finished part.
 */
public enum PartDelivery {
    /** Report every chunk as it is written, so the adapter can stream the growing part. */
    STREAM_CHUNKS,
    /** Report the part only when it is complete, as §6.2.6 requires. */
    WHOLE_PART
}
