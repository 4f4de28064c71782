package io.tern.hls.media;

import io.tern.hls.mp4.InitSegmentWriter;
import io.tern.hls.mp4.Mp4Track;

/** A rendition's CMAF header, one per codec configuration the rendition has had. */
public final class InitSegment implements MediaObject {
    private final String name;
    private final Mp4Track track;
    private final int generation;
    private final Chunk bytes;
    private byte[] attestationLine;

    /** Writes the header and keeps it in {@code store}; {@link #release()} when it is forgotten. */
    public InitSegment(String name, Mp4Track track, int generation, ChunkStore store) {
        this.name = name;
        this.track = track;
        this.generation = generation;
        this.bytes = store.keep(InitSegmentWriter.cmafHeader(track));
    }

    public void release() {
        bytes.release();
    }

    public Mp4Track track() {
        return track;
    }

    /** 0 for the stream's first configuration, then one more for each codec change. */
    public int generation() {
        return generation;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String contentType() {
        return ContentTypes.of(track.type());
    }

    @Override
    public int chunkCount() {
        return 1;
    }

    @Override
    public Chunk chunk(int i) {
        if (i != 0) {
            throw new IndexOutOfBoundsException(i);
        }
        return bytes;
    }

    @Override
    public long sizeBytes() {
        return bytes.length();
    }

    @Override
    public boolean complete() {
        return true;
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
