package io.tern.server.origin.registry;

import io.tern.hls.packager.StreamLayout;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;

/**
 * What an accepted ingest feeds its stream, always on its {@link IngestSession#eventLoop()}, in
 * stream order, from acceptance until {@link #end} (called exactly once).
 */
public interface StreamInput {
    /**
     * The tracks the publisher declares (RTMP {@code onMetaData}, the MPEG-TS PMT), before its first
     * frame if it can. Without it the stream infers them from the first configurations and frames.
     */
    void declareLayout(StreamLayout layout);

    /** A track's decoder configuration: before its first frame, and again when it changes. */
    void config(CodecConfig config);

    /** One frame, in decode order per track. */
    void accessUnit(AccessUnit unit);

    /** The ingest saw a track's timestamps jump or go back ({@code detail} says how); for stats and logs. */
    void discontinuity(TrackType track, String detail);

    /** The publish is over: the publisher left, vanished, timed out or was refused mid-stream. */
    void end(String reason);
}
