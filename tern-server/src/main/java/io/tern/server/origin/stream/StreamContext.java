package io.tern.server.origin.stream;

import io.tern.netty.hls.DirectBudget;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.record.RecordingWriter;
import io.tern.server.origin.swarm.SwarmSigning;
import java.time.InstantSource;
import java.util.function.Consumer;

/**
 * What every {@link LiveStream} shares with the server.
 *
 * @param counters        the origin's counters
 * @param wallClock       for EXT-X-PROGRAM-DATE-TIME, recording names and uptimes
 * @param directBudget    the direct memory all streams' media chunks may take together
 * @param streamCacheBytes the media bytes one stream's shared bodies may pin
 * @param writer          the recording writer, or null when the server does not record
 * @param rotateMs        media per recording file
 * @param maxHeldRequests held requests per stream (the packager's bound)
 * @param ended           told (on the stream's loop) when a stream's publish is over
 * @param swarm           signs the streams that have the swarm on, or null when none may
 */
public record StreamContext(
        OriginCounters counters,
        InstantSource wallClock,
        DirectBudget directBudget,
        long streamCacheBytes,
        RecordingWriter writer,
        long rotateMs,
        int maxHeldRequests,
        Consumer<LiveStream> ended,
        SwarmSigning swarm) {}
