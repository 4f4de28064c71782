package io.tern.hls.media;

import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;

/**
 * A media segment: the concatenation of its parts, so its chunks are the parts' chunks, in order,
 * and serving it copies nothing. Listed ({@code EXTINF}) once complete.
 */
public final class Segment implements MediaObject {
    private final String name;
    private final TrackType track;
    private final long msn;
    private final long startTime;
    private final InitSegment init;
    private final long discontinuitySequence;
    private final boolean discontinuity;
    private final long programDateTimeMs;
    private final List<Part> parts = new ArrayList<>();
    private int chunkCount;
    private long sizeBytes;
    private long duration;
    private boolean complete;
    private byte[] attestationLine;

    /**
     * @param discontinuitySequence the discontinuity sequence number of this segment
     * @param discontinuity whether an {@code EXT-X-DISCONTINUITY} precedes it
     * @param programDateTimeMs the wall-clock time of its first sample
     */
    public Segment(
            String name,
            TrackType track,
            long msn,
            long startTime,
            InitSegment init,
            long discontinuitySequence,
            boolean discontinuity,
            long programDateTimeMs) {
        this.name = name;
        this.track = track;
        this.msn = msn;
        this.startTime = startTime;
        this.init = init;
        this.discontinuitySequence = discontinuitySequence;
        this.discontinuity = discontinuity;
        this.programDateTimeMs = programDateTimeMs;
    }

    /** Adds a finished part. */
    public void add(Part part) {
        if (complete || !part.complete()) {
            throw new IllegalStateException("segment " + name + " complete or part " + part.name() + " open");
        }
        parts.add(part);
        chunkCount += part.chunkCount();
        sizeBytes += part.sizeBytes();
        duration += part.duration();
    }

    /** Finishes the segment; its duration is the sum of its parts'. */
    public void finish() {
        complete = true;
    }

    public long msn() {
        return msn;
    }

    public TrackType track() {
        return track;
    }

    /** Decode time of the first sample, in the track's timescale. */
    public long startTime() {
        return startTime;
    }

    /** Duration in the track's timescale: the sum of the parts' durations. */
    public long duration() {
        return duration;
    }

    public InitSegment init() {
        return init;
    }

    public long discontinuitySequence() {
        return discontinuitySequence;
    }

    public boolean discontinuity() {
        return discontinuity;
    }

    public long programDateTimeMs() {
        return programDateTimeMs;
    }

    /** The finished parts so far, in order. */
    public List<Part> parts() {
        return parts;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String contentType() {
        return ContentTypes.of(track);
    }

    @Override
    public int chunkCount() {
        return chunkCount;
    }

    @Override
    public Chunk chunk(int i) {
        for (Part p : parts) {
            if (i < p.chunkCount()) {
                return p.chunk(i);
            }
            i -= p.chunkCount();
        }
        throw new IndexOutOfBoundsException(i);
    }

    /** Releases the chunks of its parts: the packager forgets the segment and its parts. */
    public void release() {
        for (Part p : parts) {
            p.release();
        }
    }

    @Override
    public long sizeBytes() {
        return sizeBytes;
    }

    @Override
    public boolean complete() {
        return complete;
    }

    /**
     * The playlist line attesting this object for peer-assisted delivery
     * ({@code #EXT-X-TERN-ATTEST:...}, docs/swarm-protocol.md), written once when it completes, or
     * null when the stream is not signed.
     */
    public byte[] attestationLine() {
        return attestationLine;
    }

    public void attestationLine(byte[] line) {
        this.attestationLine = line;
    }
}
