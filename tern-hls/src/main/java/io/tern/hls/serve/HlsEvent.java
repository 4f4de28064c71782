package io.tern.hls.serve;

import io.tern.hls.media.Chunk;
import io.tern.hls.media.MediaObject;
import io.tern.hls.mp4.Mp4Track;
import io.tern.media.TrackType;
import java.util.List;

/** What the packager tells its adapter, drained with {@code pollEvent()} after every input. */
public sealed interface HlsEvent {
    /** Held playlist requests ({@code tickets}) can be answered 200 with {@code body} (shared). */
    record PlaylistReady(long[] tickets, byte[] body) implements HlsEvent {}

    /** Held requests end with {@code status}: 503 after three target durations, 404 when gone. */
    record RequestFailed(long[] tickets, int status, String reason) implements HlsEvent {}

    /**
     * The growing part held by {@code tickets} has more chunks ({@code part.chunkCount()}); when
     * {@code part.complete()} this is the last event for these tickets.
     */
    record PartProgress(long[] tickets, MediaObject part) implements HlsEvent {}

    /**
     * A chunk was written to {@code track}'s rendition, in segment {@code msn}, first of that
     * segment if {@code startsSegment}: what a recorder appends. The same chunk is in the part; it
     * is valid while the packager serves the part, so read it when the event is drained.
     *
     * @param mp4Tracks the tracks (and configurations) the chunk is written for: the rendition's
     *     one, or video and audio in a muxed rendition
     * @param startTicks where the chunk starts on the stream's output timeline (90 kHz)
     * @param programDateTimeMs the wall-clock time of its first sample
     */
    record ChunkWritten(
            TrackType track,
            List<Mp4Track> mp4Tracks,
            long msn,
            boolean startsSegment,
            long startTicks,
            long programDateTimeMs,
            Chunk chunk)
            implements HlsEvent {}

    /**
     * {@code object} (an init segment, part or segment) is no longer served: it left its download
     * window, or memory pressure dropped it. A cache of response bodies lets it go.
     */
    record ObjectRetired(MediaObject object) implements HlsEvent {}

    /** The stream ended: every playlist now carries EXT-X-ENDLIST. */
    record StreamEnded() implements HlsEvent {}
}
