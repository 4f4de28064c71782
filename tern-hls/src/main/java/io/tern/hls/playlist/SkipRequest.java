package io.tern.hls.playlist;

/** The {@code _HLS_skip} delivery directive (§6.2.5.1). */
public enum SkipRequest {
    /** No directive: the full playlist. */
    NONE,
    /** {@code _HLS_skip=YES}: skip segments older than the skip boundary. */
    YES,
    /** {@code _HLS_skip=v2}: also skip EXT-X-DATERANGE tags added before the boundary. */
    V2
}
