package io.tern.hls.media;

import io.tern.hls.mp4.InitSegmentWriter;
import io.tern.hls.mp4.Mp4Track;
import java.util.List;

/**
 * A rendition's initialization segment, one per codec configuration the rendition has had: a
 * CMAF header of one track, or, for a muxed rendition, a header of video and audio together.
 */
public final class InitSegment implements MediaObject {
    private final String name;
    private final List<Mp4Track> tracks;
    private final int generation;
    private final Chunk bytes;
    private byte[] attestationLine;

    /** Writes a one-track CMAF header and keeps it in {@code store}; {@link #release()} when it is forgotten. */
    public InitSegment(String name, Mp4Track track, int generation, ChunkStore store) {
        this.name = name;
        this.tracks = List.of(track);
        this.generation = generation;
        this.bytes = store.keep(InitSegmentWriter.cmafHeader(track));
    }

    /** Writes a muxed rendition's header, video then audio, and keeps it in {@code store}. */
    public InitSegment(String name, Mp4Track video, Mp4Track audio, int generation, ChunkStore store) {
        this.name = name;
        this.tracks = List.of(video, audio);
        this.generation = generation;
        this.bytes = store.keep(InitSegmentWriter.write(tracks, InitSegmentWriter.FRAGMENTED_BRANDS));
    }

    public void release() {
        bytes.release();
    }

    /** The track whose timescale the rendition's durations are in: the only one, or video when muxed. */
    public Mp4Track track() {
        return tracks.get(0);
    }

    /** Every track of the header: one, or video and audio. */
    public List<Mp4Track> tracks() {
        return tracks;
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
        return ContentTypes.of(track().type());
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
