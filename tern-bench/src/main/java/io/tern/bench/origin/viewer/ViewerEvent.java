package io.tern.bench.origin.viewer;

/** Things a viewer does that are not requests but say how it kept up. */
public enum ViewerEvent {
    /** Fell out of the playlist window and joined again at the live edge. */
    REJOIN,
    /** LL: a whole segment fetched because the viewer was a segment or more behind. */
    SEGMENT_FALLBACK,
    /** LL: a delta update skipped a segment the viewer still needed; the next reload is a full one. */
    FULL_RELOAD_NEEDED;
}
