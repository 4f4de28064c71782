package io.tern.hls.media;

import io.tern.media.TrackType;
import java.util.ArrayList;
import java.util.List;

/**
 * A partial segment (draft-pantos-hls-rfc8216bis-22 §4.4.4.9): a run of CMAF chunks inside a
 * segment. A part is created empty when it is hinted ({@code EXT-X-PRELOAD-HINT}), grows chunk by
 * chunk, and is listed ({@code EXT-X-PART}) once complete.
 *
 * <p>Parts are named by a per-rendition counter ({@link #id()}), not by segment and index: when
 * a part is hinted nobody knows yet whether it will be the next part of the open segment or the
 * first of a new one (that depends on whether its first frame is a keyframe that closes the
 * segment), and a hint's URI must not change.
 */
public final class Part implements MediaObject {
    private final String name;
    private final TrackType track;
    private final long id;
    private final List<Chunk> chunks = new ArrayList<>(8);
    private long sizeBytes;
    private long msn = -1;
    private int index = -1;
    private long startTime = -1;
    private long duration;
    private boolean independent;
    private boolean complete;
    private long retainUntilTicks = Long.MAX_VALUE;
    private byte[] attestationLine;

    public Part(String name, TrackType track, long id) {
        this.name = name;
        this.track = track;
        this.id = id;
    }

    /** Adds a chunk; the first one fixes the part's place in its segment and its start time. */
    public void append(Chunk chunk, long msn, int index, long startTime, boolean startsWithSync) {
        if (complete) {
            throw new IllegalStateException("part " + name + " is complete");
        }
        if (chunks.isEmpty()) {
            this.msn = msn;
            this.index = index;
            this.startTime = startTime;
            this.independent = startsWithSync;
        }
        chunks.add(chunk);
        sizeBytes += chunk.length();
    }

    /** Finishes the part with its duration in the track's timescale. */
    public void finish(long duration) {
        this.duration = duration;
        this.complete = true;
    }

    public long id() {
        return id;
    }

    public TrackType track() {
        return track;
    }

    /** The media sequence number of the parent segment, or -1 before the first chunk. */
    public long msn() {
        return msn;
    }

    /** The part index within the parent segment, or -1 before the first chunk. */
    public int index() {
        return index;
    }

    /** Decode time of the first sample, in the track's timescale. */
    public long startTime() {
        return startTime;
    }

    /** Duration in the track's timescale, once complete. */
    public long duration() {
        return duration;
    }

    /** Whether the part starts with a sync sample ({@code INDEPENDENT=YES}). */
    public boolean independent() {
        return independent;
    }

    public boolean isEmpty() {
        return chunks.isEmpty();
    }

    /** The output-timeline time (90 kHz) until which the part stays downloadable. */
    public long retainUntilTicks() {
        return retainUntilTicks;
    }

    public void retainUntilTicks(long ticks) {
        this.retainUntilTicks = ticks;
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
        return chunks.size();
    }

    @Override
    public Chunk chunk(int i) {
        return chunks.get(i);
    }

    /** Releases the part's chunks: the packager forgets it (and its segment). */
    public void release() {
        for (Chunk chunk : chunks) {
            chunk.release();
        }
        chunks.clear();
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
