package io.tern.bench.origin.viewer;

import io.tern.bench.origin.playlist.MediaPlaylist;

/**
 * Where viewers report what happened, with the time it happened. Implementations count, time
 * and relate events to the shared media timeline; they never call back into the viewer.
 */
public interface ViewerRecorder {
    /** A response completed with 200: latency from the request's send time. */
    void completed(RequestKind kind, long latencyNs, long bodyBytes, long nowNs);

    void failed(RequestKind kind, Failure cause, long nowNs);

    /**
     * A part ({@code part >= 0}) or whole segment ({@code part < 0}) of a rendition arrived
     * complete; {@code renditionIndex} is the viewer's (0: the variant, 1: its separate audio).
     */
    void delivered(String rendition, int renditionIndex, RequestKind kind, long msn, int part, long nowNs);

    /** A blocking reload asking for {@code _HLS_msn=msn&_HLS_part=part} was answered with {@code playlist}. */
    void released(MediaPlaylist playlist, long msn, int part, long nowNs);

    /** A counted viewer event (rejoins, segment fallbacks). */
    void event(ViewerEvent event, long nowNs);
}
