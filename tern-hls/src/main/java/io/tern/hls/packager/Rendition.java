package io.tern.hls.packager;

import io.tern.hls.media.Chunk;
import io.tern.hls.media.ChunkStore;
import io.tern.hls.media.InitSegment;
import io.tern.hls.media.MediaObject;
import io.tern.hls.media.Part;
import io.tern.hls.media.Segment;
import io.tern.hls.mp4.FragmentWriter;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.mp4.SampleFlags;
import io.tern.hls.mp4.SampleRun;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import java.util.List;

/**
 * One rendition (the video or the audio of a stream, or both in a muxed one): its init segments,
 * the part being written (always the preload-hinted one), the open segment, and the finished
 * segments and parts it lists or still keeps downloadable. It is told where to cut by the placers
 * and decides nothing about timing itself; it owns the windows:
 *
 * <ul>
 *   <li>the playlist lists at least {@code playlistWindowMs} and never under three target
 *       durations of segments (§6.2.2);
 *   <li>it lists the parts of segments that end within three target durations of its end, and
 *       keeps parts downloadable three target durations longer (§6.2.2);
 *   <li>a segment removed from the playlist stays downloadable for its duration plus the longest
 *       playlist (its Availability Duration, §6.2.2);
 *   <li>all of it within {@code maxRetainedBytes}, shared between the stream's renditions.
 * </ul>
 *
 * <p>A <b>muxed</b> rendition carries video and audio: it is cut where the video is (its track,
 * parts, segments and durations are the video's), its init segment has both tracks, and each
 * part is one fragment holding the video and the audio written into it ({@link #addAudio}),
 * split only where a track's samples are not contiguous.
 *
 * <p>Its bytes are kept in the {@link ChunkStore}; a chunk is released when the segment holding
 * it is dropped (its parts never outlive it), an init segment when no segment refers to it, and
 * everything at {@link #close()}.
 */
final class Rendition {
    /** What the packager learns from a rendition as it grows. */
    interface Listener {
        /** A new init segment, before any segment refers to it. */
        void initCreated(Rendition r, InitSegment init);

        /** @param startTicks the chunk's start on the output timeline, 90 kHz */
        void chunkWritten(
                Rendition r, Part part, Chunk chunk, boolean startsSegment, long startTicks, long programDateTimeMs);

        void partListed(Rendition r, Part part);

        void segmentCompleted(Rendition r, Segment segment);

        /** {@code object} is no longer served (it left its download window): caches may let it go. */
        void objectRetired(MediaObject object);
    }

    /** Shared mfhd sequence numbers, so fragments of both renditions increase in one file too. */
    static final class Sequence {
        private int next = 1;

        int next() {
            return next++;
        }
    }

    static final int MAX_LISTED_SEGMENTS = 2000;

    final TrackType track;
    /** Whether this rendition carries the audio beside the video ({@link RenditionMode#MUXED}). */
    final boolean muxed;

    private final Timing timing;
    private final PackagerConfig config;
    private final Sequence sequence;
    private final Listener listener;
    private final MemoryBudget memory;
    private final ChunkStore store;
    private final int framesPerChunk;

    private final Ring<InitSegment> inits = new Ring<>();
    private final Ring<Segment> segments = new Ring<>();
    private final Ring<Part> parts = new Ring<>();
    /** The newest configuration's init segment: frames arriving now use it. */
    private InitSegment latestInit;
    /** The init segment of the open (or last) segment. */
    private InitSegment currentInit;

    private Segment open;
    private Part openPart;
    private long nextPartId;
    private long lastCompleteMsn = -1;
    private long listedTicks;
    private long maxListedTicks;
    private boolean ended;
    private boolean closed;
    private Epoch lastEpoch;
    /** Segments at the front of {@link #segments} no longer listed but still downloadable. */
    private int retired;
    /** Per retired segment (oldest first), the edge time until which it stays downloadable. */
    private final Ring<Long> retiredUntil = new Ring<>();

    private final SampleRun run = new SampleRun();
    private long runStart;
    private long runEnd;
    private boolean hasSamples;

    // A muxed rendition's audio: the latest configurations of both tracks and the audio samples
    // of the fragment being assembled, in the audio's timescale.
    private Mp4Track latestVideo;
    private Mp4Track latestAudio;
    private final SampleRun audioRun = new SampleRun();
    private long audioRunStart;
    private long audioRunEnd;

    Rendition(
            TrackType track,
            boolean muxed,
            PackagerConfig config,
            Timing timing,
            Sequence sequence,
            MemoryBudget memory,
            ChunkStore store,
            Listener listener) {
        this.track = track;
        this.muxed = muxed;
        this.config = config;
        this.timing = timing;
        this.sequence = sequence;
        this.memory = memory;
        this.store = store;
        this.listener = listener;
        // A muxed part is one fragment: it is written when the part is cut.
        this.framesPerChunk = muxed ? Integer.MAX_VALUE : track == TrackType.VIDEO ? 1 : config.audioFramesPerChunk();
        this.openPart = newPart();
    }

    /**
     * A new codec configuration: a new init segment. Frames that arrive from now on carry it
     * (the placers note it per frame) and the first segment they open uses it.
     */
    void configure(CodecConfig codec) {
        int generation = latestInit == null ? 0 : latestInit.generation() + 1;
        String name = ObjectNames.init(track, generation);
        if (muxed) {
            if (codec.track() == TrackType.VIDEO) {
                latestVideo = Mp4Track.of(codec);
            } else {
                latestAudio = Mp4Track.of(codec);
            }
            if (latestVideo == null || latestAudio == null) {
                return; // the header needs both tracks: frames wait for the other configuration
            }
            latestInit = new InitSegment(name, latestVideo, latestAudio, generation, store);
        } else {
            latestInit = new InitSegment(name, Mp4Track.of(codec), generation, store);
        }
        inits.addLast(latestInit);
        listener.initCreated(this, latestInit);
        if (currentInit == null) {
            currentInit = latestInit;
        }
    }

    /** The newest configuration of {@code type}'s track, or null before any. */
    Mp4Track latestTrack(TrackType type) {
        if (muxed) {
            return type == TrackType.VIDEO ? latestVideo : latestAudio;
        }
        return latestInit == null || type != track ? null : latestInit.track();
    }

    /** The init segment of the open segment, or of the last one. */
    InitSegment currentInit() {
        return currentInit;
    }

    /** The newest configuration's init segment, or null before any. */
    InitSegment latestInit() {
        return latestInit;
    }

    int timescale() {
        return currentInit.track().timescale();
    }

    boolean hasOpenSegment() {
        return open != null;
    }

    Segment openSegment() {
        return open;
    }

    /** Closes the open segment, if any, and opens the one of {@code slot} with {@code init}. */
    void startSegment(SegmentSlot slot, long startTime, long programDateTimeMs, InitSegment init) {
        closeSegment();
        currentInit = init;
        Epoch e = slot.epoch();
        boolean discontinuity = lastEpoch != null && lastEpoch != e;
        open = new Segment(
                ObjectNames.segment(track, slot.msn()),
                track,
                slot.msn(),
                startTime,
                init,
                e.discontinuitySequence,
                discontinuity,
                programDateTimeMs);
        lastEpoch = e;
    }

    /**
     * Adds a sample to the part being written. Samples must follow each other in decode time
     * within a chunk; a gap starts a new chunk (fragments have no per-sample times).
     */
    void add(byte[] data, long dts, int duration, int flags, int compositionOffset) {
        if (open == null) {
            throw new IllegalStateException("no open segment");
        }
        if (!run.isEmpty() && dts != runEnd) {
            flushChunk();
        }
        if (run.isEmpty()) {
            runStart = dts;
        }
        run.add(data, duration, flags, compositionOffset);
        runEnd = dts + duration;
        hasSamples = true;
        if (run.count() >= framesPerChunk) {
            flushChunk();
        }
    }

    /**
     * Adds an audio sample to a muxed rendition's part being written, in the audio's timescale.
     * The audio placer writes a frame once the video has decided every cut before it, so the
     * frame lands in the part whose interval holds it (to the nearest frame boundary).
     */
    void addAudio(byte[] data, long dts, int duration) {
        if (!muxed || open == null) {
            throw new IllegalStateException("no open muxed segment");
        }
        if (!audioRun.isEmpty() && dts != audioRunEnd) {
            flushChunk();
        }
        if (audioRun.isEmpty()) {
            audioRunStart = dts;
        }
        audioRun.add(data, duration, SampleFlags.SYNC, 0);
        audioRunEnd = dts + duration;
    }

    /** Writes the samples collected so far as one chunk of the part being written. */
    void flushChunk() {
        if (run.isEmpty() && audioRun.isEmpty()) {
            return;
        }
        byte[] fragment;
        long start;
        if (muxed) {
            List<Mp4Track> tracks = open.init().tracks();
            fragment = FragmentWriter.writeMuxed(
                    sequence.next(), tracks.get(0), runStart, run, tracks.get(1), audioRunStart, audioRun);
            // A fragment of audio alone (a gap in it before the part's first video frame) starts
            // where the video left off.
            start = run.isEmpty() ? runEnd : runStart;
        } else {
            fragment = FragmentWriter.write(sequence.next(), open.init().track(), runStart, run);
            start = runStart;
        }
        Chunk chunk = store.keep(fragment);
        boolean startsSegment = openPart.isEmpty() && open.parts().isEmpty();
        openPart.append(chunk, open.msn(), open.parts().size(), start, run.startsWithSync());
        long startTicks = ticks(start);
        long programDateTimeMs = open.programDateTimeMs() + (startTicks - ticks(open.startTime())) / 90;
        run.clear();
        audioRun.clear();
        memory.add(chunk.length());
        listener.chunkWritten(this, openPart, chunk, startsSegment, startTicks, programDateTimeMs);
    }

    /** Decode time where the part being written starts, or -1 while it is empty. */
    long partStart() {
        if (!openPart.isEmpty()) {
            return openPart.startTime();
        }
        return run.isEmpty() ? -1 : runStart;
    }

    /** End of the last sample added, in the track's timescale. */
    long end() {
        return runEnd;
    }

    boolean hasSamples() {
        return hasSamples;
    }

    /** Ends the part being written (if it has samples), lists it, and hints a new one. */
    void cutPart() {
        flushChunk();
        if (openPart.isEmpty()) {
            return;
        }
        Part done = openPart;
        done.finish(runEnd - done.startTime());
        open.add(done);
        parts.addLast(done);
        openPart = newPart();
        listedTicks += ticks(done.duration());
        maxListedTicks = Math.max(maxListedTicks, listedTicks);
        listener.partListed(this, done);
        expire();
    }

    /** Ends the open segment, if any. */
    void closeSegment() {
        if (open == null) {
            return;
        }
        cutPart();
        Segment done = open;
        open = null;
        if (done.parts().isEmpty()) {
            return;
        }
        done.finish();
        segments.addLast(done);
        lastCompleteMsn = done.msn();
        long end = ticks(done.startTime() + done.duration());
        // Listed at most while the segment starts within 3 target durations of the listing's
        // end (MediaPlaylistWriter), then 3 more downloadable (§6.2.2); one more target duration
        // covers the part being written, by which this rendition's edge runs ahead of what it lists.
        long partsUntil = end + 7 * timing.targetDurationTicks();
        for (Part p : done.parts()) {
            p.retainUntilTicks(partsUntil);
        }
        listener.segmentCompleted(this, done);
        trimWindow();
        expire();
    }

    /** The stream ended: closes everything; no part is hinted any more. */
    void finish() {
        closeSegment();
        ended = true;
        openPart = null;
    }

    boolean ended() {
        return ended;
    }

    /** The part being written and hinted, or null after the end. */
    Part hintedPart() {
        return openPart;
    }

    private Part newPart() {
        long id = nextPartId++;
        return new Part(ObjectNames.part(track, id), track, id);
    }

    /** Drops the oldest listed segments while the rest still covers the window (§6.2.2). */
    private void trimWindow() {
        long window = MediaTime.fromMillis(config.playlistWindowMs());
        long minimum = 3 * timing.targetDurationTicks();
        while (listedCount() > 1) {
            Segment first = listed(0);
            long rest = listedTicks - segmentTicks(first);
            boolean tooMany = listedCount() > MAX_LISTED_SEGMENTS;
            if (!tooMany && (rest < window || rest < minimum)) {
                break;
            }
            retire(first);
        }
    }

    /** Whether the window can lose its oldest segment and still keep three target durations. */
    boolean canShrink() {
        if (listedCount() <= 1) {
            return false;
        }
        Segment first = listed(0);
        return listedTicks - segmentTicks(first) >= 3 * timing.targetDurationTicks();
    }

    /** Removes the oldest listed segment from the playlist; it stays downloadable a while. */
    void shrink() {
        retire(listed(0));
    }

    private void retire(Segment first) {
        long duration = segmentTicks(first);
        retired++;
        listedTicks -= duration;
        retiredUntil.addLast(edgeTicks() + duration + maxListedTicks);
    }

    /** Forgets parts and retired segments whose download windows have passed. */
    private void expire() {
        long edge = edgeTicks();
        while (!parts.isEmpty() && parts.first().retainUntilTicks() <= edge) {
            listener.objectRetired(parts.removeFirst());
        }
        while (!retiredUntil.isEmpty() && retiredUntil.first() <= edge) {
            dropOldest();
        }
    }

    /** Whether a removed-from-the-playlist segment is still kept, so it can be dropped for memory. */
    boolean hasRetired() {
        return !retiredUntil.isEmpty();
    }

    /** Drops the oldest retired segment, its parts and init segments nothing refers to any more. */
    void dropOldest() {
        retiredUntil.removeFirst();
        retired--;
        Segment gone = segments.removeFirst();
        memory.release(gone.sizeBytes());
        gone.release();
        listener.objectRetired(gone);
        while (!parts.isEmpty() && parts.first().msn() <= gone.msn()) {
            listener.objectRetired(parts.removeFirst());
        }
        int keepFrom = segments.isEmpty()
                ? currentInit.generation()
                : segments.first().init().generation();
        while (inits.first().generation() < keepFrom) {
            InitSegment init = inits.removeFirst();
            init.release();
            listener.objectRetired(init);
        }
    }

    /**
     * Releases every chunk and init segment and forgets them: the stream is gone. Nothing is
     * served or listed afterwards.
     */
    void close() {
        while (!segments.isEmpty()) {
            Segment s = segments.removeFirst();
            memory.release(s.sizeBytes());
            s.release();
        }
        if (open != null) {
            for (Part p : open.parts()) {
                memory.release(p.sizeBytes());
                p.release();
            }
            open = null;
        }
        if (openPart != null) {
            memory.release(openPart.sizeBytes());
            openPart.release();
            openPart = null;
        }
        parts.clear();
        run.clear();
        audioRun.clear();
        while (!inits.isEmpty()) {
            inits.removeFirst().release();
        }
        retiredUntil.clear();
        retired = 0;
        listedTicks = 0;
        ended = true;
        closed = true;
    }

    boolean closed() {
        return closed;
    }

    /** The output time (90 kHz) this rendition has reached. */
    long edgeTicks() {
        return hasSamples ? ticks(runEnd) : 0;
    }

    long ticks(long value) {
        return ticks(value, timescale());
    }

    static long ticks(long value, int timescale) {
        return Math.floorDiv(Math.multiplyExact(value, (long) MediaTime.TICKS_PER_SECOND), timescale);
    }

    /** A segment's duration in 90 kHz ticks, summed part by part as {@link #listedTicks} is. */
    static long segmentTicks(Segment s) {
        int timescale = s.init().track().timescale();
        long sum = 0;
        for (Part p : s.parts()) {
            sum += ticks(p.duration(), timescale);
        }
        return sum;
    }

    // ---- what the playlist shows

    /** Completed segments in the playlist. */
    int listedCount() {
        return segments.size() - retired;
    }

    /** The {@code i}-th completed segment in the playlist. */
    Segment listed(int i) {
        return segments.get(retired + i);
    }

    long lastCompleteMsn() {
        return lastCompleteMsn;
    }

    /** Duration of what the playlist lists (completed segments and finished parts), 90 kHz. */
    long listedTicks() {
        return listedTicks;
    }

    /** The last finished part, or null before the first. */
    Part lastPart() {
        return parts.isEmpty() ? null : parts.last();
    }

    // ---- lookups by name

    Segment segment(long msn) {
        int lo = 0;
        int hi = segments.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long m = segments.get(mid).msn();
            if (m == msn) {
                return segments.get(mid);
            }
            if (m < msn) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }

    Part part(long id) {
        if (openPart != null && openPart.id() == id) {
            return openPart;
        }
        if (parts.isEmpty()) {
            return null;
        }
        long index = id - parts.first().id();
        if (index < 0 || index >= parts.size()) {
            return null;
        }
        return parts.get((int) index);
    }

    InitSegment init(long generation) {
        for (int i = 0; i < inits.size(); i++) {
            if (inits.get(i).generation() == generation) {
                return inits.get(i);
            }
        }
        return null;
    }
}
