package io.tern.hls.packager;

import io.tern.hls.media.Chunk;
import io.tern.hls.media.ChunkStore;
import io.tern.hls.media.HeapChunkStore;
import io.tern.hls.media.InitSegment;
import io.tern.hls.media.MediaObject;
import io.tern.hls.media.Part;
import io.tern.hls.media.Segment;
import io.tern.hls.mp4.Mp4Track;
import io.tern.hls.playlist.DateRange;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.playlist.SkipRequest;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.hls.swarm.ObjectKind;
import io.tern.hls.swarm.SessionEndorsement;
import io.tern.hls.swarm.StreamSigner;
import io.tern.media.AccessUnit;
import io.tern.media.MediaTime;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.CodecConfig;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * The LL-HLS packager of one stream: a sans-IO engine. Samples and time go in; init segments,
 * parts, segments and playlists come out, and held requests are answered through events.
 *
 * <ul>
 *   <li><b>Inputs</b>: {@link #onConfig}, {@link #onAccessUnit}, {@link #onEndOfStream} from the
 *       ingest; {@link #onTimeout} when {@link #nextDeadlineNs()} passes.
 *   <li><b>Requests</b>: {@link #multivariantPlaylist}, {@link #mediaPlaylist} and {@link
 *       #object} answer at once or hold the request under a ticket ({@link #cancel}).
 *   <li><b>Outputs</b>: {@link #pollEvent()} after every input and request, until null.
 * </ul>
 *
 * <p>Not thread-safe: one thread (the stream's event loop) makes every call. No call blocks,
 * sleeps, reads a clock (time comes in as {@code nowNs}, the wall clock is injected) or does I/O.
 * <p>A stream with video and audio is served as two renditions ({@link RenditionMode#SEPARATE}),
 * or as one carrying both ({@link RenditionMode#MUXED}): then {@link #video} is that rendition,
 * {@link #audio} is null, the audio placer writes into it, and a {@link MuxGate} holds video back
 * until the audio beside it has arrived.
 *
 * <p>See {@code tern-hls/README.md} for the adapter's side.
 */
public final class LlHlsPackager {
    private final PackagerConfig config;
    private final StreamLayout layout;
    private final WallClock wallClock;
    private final Timing timing;
    private final StreamTimeline timeline = new StreamTimeline();
    private final PackagerStats stats = new PackagerStats();
    private final MemoryBudget memory;
    /** The video rendition, or the muxed one; null for a stream without video. */
    private final Rendition video;
    /** The audio rendition; null without audio, and when muxed (audio is in {@link #video}). */
    private final Rendition audio;
    /** Holds video for the audio beside it when muxed, else null. */
    private final MuxGate gate;

    private final VideoPlacer videoPlacer;
    private final AudioPlacer audioPlacer;
    private final HeldRequests held = new HeldRequests();
    private final ArrayDeque<HlsEvent> events = new ArrayDeque<>();
    private final MediaPlaylistWriter mediaWriter;
    private final MultivariantPlaylistWriter multivariantWriter;
    private final DateRanges dateRanges = new DateRanges();
    private final long holdNs;
    /** Attests every completed object (peer-assisted delivery), or null. */
    private final StreamSigner signer;

    /** Rendered playlists, per rendition and skip mode, valid while {@link #listingVersion} holds. */
    private final PlaylistAnswer.Ready[][] cache = new PlaylistAnswer.Ready[2][SkipRequest.values().length];

    private long cacheVersion = -1;
    private long listingVersion;
    private long nowNs;
    private boolean ended;

    /** A packager keeping its media on the heap ({@link HeapChunkStore}). */
    public LlHlsPackager(PackagerConfig config, StreamLayout layout, WallClock wallClock) {
        this(config, layout, wallClock, new HeapChunkStore());
    }

    /** A packager keeping its media in {@code store}; {@link #close()} releases what it holds. */
    public LlHlsPackager(PackagerConfig config, StreamLayout layout, WallClock wallClock, ChunkStore store) {
        this(config, layout, wallClock, store, null);
    }

    /**
     * A packager whose objects {@code signer} attests, once each as it completes (init segments
     * when configured, parts when listed, segments when closed), for peer-assisted delivery: its
     * media playlists then carry the session keys and attestations (docs/swarm-protocol.md).
     */
    public LlHlsPackager(
            PackagerConfig config, StreamLayout layout, WallClock wallClock, ChunkStore store, StreamSigner signer) {
        this.signer = signer;
        this.config = config;
        this.layout = layout;
        this.wallClock = wallClock;
        this.timing = new Timing(config, layout, 5760);
        this.memory = new MemoryBudget(config.maxRetainedBytes());
        Rendition.Sequence sequence = new Rendition.Sequence();
        Rendition.Listener listener = new Listener();
        boolean muxed = config.renditions() == RenditionMode.MUXED && layout.hasVideo() && layout.hasAudio();
        this.video = layout.hasVideo()
                ? new Rendition(TrackType.VIDEO, muxed, config, timing, sequence, memory, store, listener)
                : null;
        this.audio = layout.hasAudio() && !muxed
                ? new Rendition(TrackType.AUDIO, false, config, timing, sequence, memory, store, listener)
                : null;
        this.gate = muxed ? new MuxGate() : null;
        this.videoPlacer = video == null
                ? null
                : new VideoPlacer(config, timing, timeline, video, stats, new VideoPlacer.Follower() {
                    @Override
                    public AacConfig audioConfig() {
                        Rendition r = writer(TrackType.AUDIO);
                        Mp4Track track = r == null ? null : r.latestTrack(TrackType.AUDIO);
                        return track == null ? null : (AacConfig) track.config();
                    }

                    @Override
                    public long audioEndTicks() {
                        return audioPlacer == null ? -1 : audioPlacer.endTicks();
                    }
                });
        Rendition audioWriter = writer(TrackType.AUDIO);
        this.audioPlacer =
                audioWriter == null ? null : new AudioPlacer(config, timing, timeline, audioWriter, stats, videoPlacer);
        this.mediaWriter = new MediaPlaylistWriter(timing);
        this.multivariantWriter = new MultivariantPlaylistWriter(config.instanceId());
        this.holdNs = 3L * config.targetDurationSeconds() * 1_000_000_000L;
    }

    // ---------------------------------------------------------------- inputs

    /**
     * A track's decoder configuration, before its first frame and again whenever it changes. The
     * same configuration sent again changes nothing; a different one starts a new init segment
     * and a discontinuity. Returns false if the configuration is refused (an undeclared track,
     * or one an init segment cannot carry).
     */
    public boolean onConfig(CodecConfig codec, long nowNs) {
        this.nowNs = nowNs;
        Rendition r = writer(codec.track());
        if (r == null || ended) {
            return false;
        }
        Mp4Track latest = r.latestTrack(codec.track());
        if (latest != null && latest.config().equals(codec)) {
            return true;
        }
        if (gate != null) {
            releaseHeldVideo(); // the frames held arrived before the change: they keep the old one
        }
        try {
            r.configure(codec);
        } catch (IllegalArgumentException e) {
            return false; // a configuration an init segment cannot carry (an oversized AudioSpecificConfig)
        }
        if (gate != null && codec instanceof AacConfig aac) {
            gate.audioConfig(aac);
        }
        if (latest != null) {
            if (codec.track() == TrackType.VIDEO) {
                videoPlacer.configChanged();
            } else {
                audioPlacer.configChanged();
            }
        }
        return true;
    }

    /** One frame from the ingest, in decode order per track. */
    public void onAccessUnit(AccessUnit au, long nowNs) {
        this.nowNs = nowNs;
        stats.accessUnits++;
        if (ended) {
            return;
        }
        Rendition r = writer(au.track());
        if (r == null) {
            stats.droppedUndeclaredTrack++;
            return;
        }
        if (r.latestInit() == null) {
            stats.droppedNoConfig++;
            return;
        }
        if (au.sizeBytes() > config.maxAccessUnitBytes() || au.sizeBytes() == 0) {
            stats.droppedOversize++;
            return;
        }
        long wallMs = wallClock.epochMillis();
        if (gate != null) {
            if (au.track() == TrackType.VIDEO) {
                gate.holdVideo(au, wallMs);
            } else {
                gate.onAudio(au);
                audioPlacer.onFrame(au, wallMs);
            }
            for (MuxGate.Held h; (h = gate.poll()) != null; ) {
                placeVideo(h.au(), h.wallMs());
            }
        } else if (au.track() == TrackType.VIDEO) {
            placeVideo(au, wallMs);
        } else {
            audioPlacer.onFrame(au, wallMs);
        }
        enforceMemory();
    }

    private void placeVideo(AccessUnit au, long wallMs) {
        videoPlacer.onFrame(au, wallMs);
        if (audioPlacer != null) {
            audioPlacer.drain();
        }
    }

    /** Lets every video frame the gate holds go on, whatever the audio has done. */
    private void releaseHeldVideo() {
        for (MuxGate.Held h; (h = gate.pollNow()) != null; ) {
            placeVideo(h.au(), h.wallMs());
        }
    }

    /** The publisher is gone: the last frames are placed and every playlist gets EXT-X-ENDLIST. */
    public void onEndOfStream(long nowNs) {
        this.nowNs = nowNs;
        if (ended) {
            return;
        }
        if (gate != null) {
            releaseHeldVideo();
        }
        Part videoHint = video == null ? null : video.hintedPart();
        Part audioHint = audio == null ? null : audio.hintedPart();
        if (gate != null) {
            videoPlacer.placeLast();
            audioPlacer.end(); // the audio of the last frames, into the muxed rendition
            video.finish();
        } else {
            if (videoPlacer != null) {
                videoPlacer.end();
            }
            if (audioPlacer != null) {
                audioPlacer.end();
            }
        }
        ended = true;
        listingVersion++;
        for (Part hint : new Part[] {videoHint, audioHint}) {
            if (hint != null && !hint.complete()) {
                fail(held.partWaiters(hint, true), 404, "the stream ended before this part");
            }
        }
        for (HeldRequests.Held h : held.releaseAllPlaylists()) {
            Rendition r = rendition(h.track);
            if (r.lastPart() == null) {
                fail(List.of(h), 404, "the stream ended without media");
            } else {
                ready(List.of(h), render(r, SkipRequest.NONE));
            }
        }
        releaseMultivariant();
        List<HeldRequests.Held> left = held.releaseMultivariant();
        fail(left, 404, "the stream ended without media");
        events.addLast(new HlsEvent.StreamEnded());
    }

    /**
     * Releases every chunk the stream holds (its owner is done with it): the stream ends if it had
     * not, its events are dropped, and nothing is served afterwards. Idempotent.
     */
    public void close(long nowNs) {
        onEndOfStream(nowNs);
        events.clear();
        for (Rendition r : new Rendition[] {video, audio}) {
            if (r != null && !r.closed()) {
                r.close();
            }
        }
        listingVersion++;
    }

    /** Expires held requests whose deadline has passed: they end with 503 (§6.2.5.2). */
    public void onTimeout(long nowNs) {
        this.nowNs = nowNs;
        List<HeldRequests.Held> expired = held.expire(nowNs);
        fail(expired, 503, "not available within three target durations");
    }

    /** When {@link #onTimeout} should next run, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNs() {
        return held.nextDeadlineNs();
    }

    /** The next output, or null when there is none. */
    public HlsEvent pollEvent() {
        return events.pollFirst();
    }

    /**
     * Adds an EXT-X-DATERANGE to both media playlists. False if its ID was used before or too
     * many ranges are open.
     */
    public boolean addDateRange(DateRange range, long nowNs) {
        this.nowNs = nowNs;
        boolean added = dateRanges.add(range, nowNs);
        if (added) {
            listingVersion++;
        }
        return added;
    }

    // ---------------------------------------------------------------- requests

    /** The multivariant playlist, once every declared track has produced a segment. */
    public PlaylistAnswer multivariantPlaylist(long nowNs) {
        this.nowNs = nowNs;
        if (multivariantReady()) {
            return new PlaylistAnswer.Ready(renderMultivariant());
        }
        if (ended) {
            return new PlaylistAnswer.Error(404, "the stream ended without media");
        }
        if (held.size() >= config.maxHeldRequests()) {
            return new PlaylistAnswer.Error(503, "too many requests held");
        }
        HeldRequests.Held h = held.holdMultivariant(nowNs + holdNs);
        return new PlaylistAnswer.Wait(h.ticket, -1, -1, h.deadlineNs);
    }

    /**
     * A media playlist request (§6.2.5): the playlist now, or a blocking reload held until the
     * part or segment it names is listed, or 400 for a request too far ahead.
     */
    public PlaylistAnswer mediaPlaylist(TrackType track, PlaylistRequest request, long nowNs) {
        this.nowNs = nowNs;
        Rendition r = rendition(track);
        if (r == null) {
            return new PlaylistAnswer.Error(404, "no " + ObjectNames.prefix(track) + " rendition");
        }
        if (ended) {
            // §6.2.5.1 and §6.2.5.2: directives are ignored once the playlist has EXT-X-ENDLIST.
            return r.lastPart() == null
                    ? new PlaylistAnswer.Error(404, "the stream ended without media")
                    : answer(r, SkipRequest.NONE);
        }
        long target = 0; // a plain request waits for anything listed
        if (request.blocking()) {
            PlaylistAnswer.Error tooFar = tooFarAhead(r, request);
            if (tooFar != null) {
                return tooFar;
            }
            target = waitKey(r, request);
        }
        if (stateKey(r) >= target) {
            return answer(r, request.skip());
        }
        return holdPlaylist(track, target, request, nowNs);
    }

    /**
     * Why a blocking reload is refused (400), or null: more than two segments ahead (§6.2.5.2), a
     * part beyond the advance part limit, or a part index out of range.
     */
    private PlaylistAnswer.Error tooFarAhead(Rendition r, PlaylistRequest request) {
        long lastComplete = r.lastCompleteMsn();
        if (request.msn() > lastComplete + 2) {
            return new PlaylistAnswer.Error(
                    400,
                    "_HLS_msn=" + request.msn() + " is more than two segments after the last (" + lastComplete + ")");
        }
        if (request.part() < 0) {
            return null;
        }
        long msn = partMsn(r, request);
        long part = msn == request.msn() ? request.part() : 0;
        Part last = r.lastPart();
        long lastMsn = last == null ? -1 : last.msn();
        long lastIndex = last == null ? -1 : last.index();
        long limit = timing.partTargetFixed() ? timing.advancePartLimit() : 3;
        if ((msn == lastMsn && part - lastIndex > limit) || (msn > lastMsn && part > limit)) {
            return new PlaylistAnswer.Error(
                    400, "_HLS_part=" + request.part() + " is beyond the advance part limit (" + limit + ")");
        }
        if (part >= HeldRequests.WHOLE_SEGMENT) {
            return new PlaylistAnswer.Error(400, "_HLS_part=" + request.part() + " is out of range");
        }
        return null;
    }

    /** What a blocking reload waits for, comparable with {@link #stateKey}. */
    private static long waitKey(Rendition r, PlaylistRequest request) {
        if (request.part() < 0) {
            return HeldRequests.key(request.msn(), HeldRequests.WHOLE_SEGMENT);
        }
        long msn = partMsn(r, request);
        return HeldRequests.key(msn, msn == request.msn() ? request.part() : 0);
    }

    /** §6.2.5.2: a part past the last of a finished segment is part 0 of the next segment. */
    private static long partMsn(Rendition r, PlaylistRequest request) {
        Segment done = r.segment(request.msn());
        return done != null && request.part() >= done.parts().size() ? request.msn() + 1 : request.msn();
    }

    private PlaylistAnswer holdPlaylist(TrackType track, long target, PlaylistRequest request, long nowNs) {
        if (held.size() >= config.maxHeldRequests()) {
            return new PlaylistAnswer.Error(503, "too many requests held");
        }
        HeldRequests.Held h = held.holdPlaylist(track, target, request.skip(), nowNs + holdNs);
        return new PlaylistAnswer.Wait(h.ticket, request.msn(), request.part(), h.deadlineNs);
    }

    /**
     * An init segment, part or segment by name ({@link ObjectNames}). The part being written is
     * answered {@link ObjectAnswer.Growing} and followed by events; a part beyond it is not found.
     */
    public ObjectAnswer object(String name, long nowNs) {
        this.nowNs = nowNs;
        ObjectNames.Parsed parsed = ObjectNames.parse(name);
        Rendition r = parsed == null ? null : rendition(parsed.track());
        if (r == null) {
            return new ObjectAnswer.NotFound();
        }
        switch (parsed.kind()) {
            case INIT -> {
                InitSegment init = r.init(parsed.number());
                return init == null ? new ObjectAnswer.NotFound() : new ObjectAnswer.Found(init);
            }
            case SEGMENT -> {
                Segment s = r.segment(parsed.number());
                return s == null ? new ObjectAnswer.NotFound() : new ObjectAnswer.Found(s);
            }
            case PART -> {
                Part p = r.part(parsed.number());
                if (p == null) {
                    return new ObjectAnswer.NotFound();
                }
                if (p.complete()) {
                    return new ObjectAnswer.Found(p);
                }
                if (held.size() >= config.maxHeldRequests()) {
                    return new ObjectAnswer.Error(503, "too many requests held");
                }
                HeldRequests.Held h = held.holdPart(p, nowNs + holdNs);
                return new ObjectAnswer.Growing(p, h.ticket, config.partDelivery() == PartDelivery.STREAM_CHUNKS);
            }
            default -> {
                return new ObjectAnswer.NotFound();
            }
        }
    }

    /** Forgets a held request (its client went away). */
    public void cancel(long ticket) {
        held.cancel(ticket);
    }

    // ---------------------------------------------------------------- facts for the adapter

    public PackagerStats stats() {
        return stats;
    }

    public StreamLayout layout() {
        return layout;
    }

    public PackagerConfig config() {
        return config;
    }

    public boolean ended() {
        return ended;
    }

    /** Requests held now (playlists, multivariant, growing parts). */
    public int heldRequests() {
        return held.size();
    }

    /** Bytes of media held in memory for this stream. */
    public long retainedBytes() {
        return memory.bytes();
    }

    /** The declared PART-TARGET in milliseconds (rounded up), or the configured one before it is fixed. */
    public long partTargetMs() {
        return timing.partTargetFixed() ? Math.ceilDiv(timing.partTargetE5(), 100) : config.partTargetMs();
    }

    public int targetDurationS() {
        return timing.targetDurationS;
    }

    // ---------------------------------------------------------------- internals

    /** The rendition serving {@code track}'s playlist and objects, or null (none, or muxed audio). */
    private Rendition rendition(TrackType track) {
        return track == TrackType.VIDEO ? video : audio;
    }

    /** The rendition {@code track}'s configurations and samples go into, or null if undeclared. */
    private Rendition writer(TrackType track) {
        if (track == TrackType.AUDIO && gate != null) {
            return video;
        }
        return layout.has(track) ? rendition(track) : null;
    }

    private Rendition other(Rendition r) {
        return r == video ? audio : video;
    }

    /** How far a rendition's listing has got, comparable with request targets. */
    private static long stateKey(Rendition r) {
        Part last = r.lastPart();
        if (last == null) {
            return -1;
        }
        if (r.lastCompleteMsn() >= last.msn()) {
            return HeldRequests.key(last.msn(), HeldRequests.WHOLE_SEGMENT);
        }
        return HeldRequests.key(last.msn(), last.index());
    }

    private byte[] render(Rendition r, SkipRequest skip) {
        return answer(r, skip).body();
    }

    /** The playlist as an answer, rendered once per change and shared by every viewer. */
    private PlaylistAnswer.Ready answer(Rendition r, SkipRequest skip) {
        if (cacheVersion != listingVersion) {
            for (PlaylistAnswer.Ready[] row : cache) {
                Arrays.fill(row, null);
            }
            cacheVersion = listingVersion;
        }
        int row = r.track == TrackType.VIDEO ? 0 : 1;
        // A v2 delta depends on the time of the request when there are date ranges.
        boolean cacheable = skip != SkipRequest.V2 || dateRanges.isEmpty();
        PlaylistAnswer.Ready ready = cacheable ? cache[row][skip.ordinal()] : null;
        if (ready == null) {
            ready = new PlaylistAnswer.Ready(mediaWriter.render(r, other(r), skip, dateRanges, sessions(), nowNs));
            if (cacheable) {
                cache[row][skip.ordinal()] = ready;
            }
        }
        return ready;
    }

    /**
     * Renders a media playlist afresh, bypassing the cache that {@link #mediaPlaylist} answers
     * from (for benchmarks and debugging). Null before the rendition has listed anything.
     */
    public byte[] renderMediaPlaylist(TrackType track, SkipRequest skip) {
        Rendition r = rendition(track);
        if (r == null || r.lastPart() == null) {
            return null;
        }
        return mediaWriter.render(r, other(r), skip, dateRanges, sessions(), nowNs);
    }

    private List<SessionEndorsement> sessions() {
        return signer == null ? null : signer.listed();
    }

    private long nowEpochS() {
        return Math.floorDiv(wallClock.epochMillis(), 1000);
    }

    private boolean multivariantReady() {
        return (video == null || video.lastCompleteMsn() >= 0) && (audio == null || audio.lastCompleteMsn() >= 0);
    }

    private byte[] renderMultivariant() {
        double fps = timing.partTargetFixed() && timing.videoFrameTicks() > 0
                ? (double) MediaTime.TICKS_PER_SECOND / timing.videoFrameTicks()
                : 0;
        return multivariantWriter.render(video, audio, fps);
    }

    private void releaseMultivariant() {
        if (multivariantReady()) {
            List<HeldRequests.Held> waiting = held.releaseMultivariant();
            if (!waiting.isEmpty()) {
                ready(waiting, renderMultivariant());
            }
        }
    }

    private void releasePlaylists(Rendition r) {
        List<HeldRequests.Held> ready = held.releasePlaylists(r.track, stateKey(r));
        if (ready.isEmpty()) {
            return;
        }
        for (SkipRequest skip : SkipRequest.values()) {
            List<HeldRequests.Held> group =
                    ready.stream().filter(h -> h.skip == skip).toList();
            if (!group.isEmpty()) {
                ready(group, render(r, skip));
            }
        }
    }

    private void ready(List<HeldRequests.Held> held, byte[] body) {
        events.addLast(new HlsEvent.PlaylistReady(tickets(held), body));
    }

    private void fail(List<HeldRequests.Held> held, int status, String reason) {
        if (!held.isEmpty()) {
            events.addLast(new HlsEvent.RequestFailed(tickets(held), status, reason));
        }
    }

    private static long[] tickets(List<HeldRequests.Held> held) {
        long[] t = new long[held.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = held.get(i).ticket;
        }
        return t;
    }

    /** Keeps the stream within maxRetainedBytes: removed objects go first, then the window shrinks. */
    private void enforceMemory() {
        while (memory.over()) {
            Rendition victim = null;
            for (Rendition r : new Rendition[] {video, audio}) {
                if (r != null && r.hasRetired()) {
                    victim = r;
                    break;
                }
            }
            if (victim == null) {
                for (Rendition r : new Rendition[] {video, audio}) {
                    if (r != null && r.canShrink()) {
                        r.shrink();
                        listingVersion++;
                        victim = r;
                        break;
                    }
                }
            }
            if (victim == null) {
                return; // only the minimal window is left: the spec's floor wins
            }
            victim.dropOldest();
            stats.memoryDrops++;
        }
    }

    private final class Listener implements Rendition.Listener {
        @Override
        public void initCreated(Rendition r, InitSegment init) {
            if (signer != null) {
                init.attestationLine(
                        signer.attest(ObjectKind.INIT, ObjectNames.prefix(r.track), -1, -1, init, nowEpochS())
                                .tagBytes());
            }
        }

        @Override
        public void chunkWritten(
                Rendition r, Part part, Chunk chunk, boolean startsSegment, long startTicks, long programDateTimeMs) {
            stats.chunkBytes += chunk.length();
            events.addLast(new HlsEvent.ChunkWritten(
                    r.track,
                    r.currentInit().tracks(),
                    part.msn(),
                    startsSegment,
                    startTicks,
                    programDateTimeMs,
                    chunk));
            if (config.partDelivery() == PartDelivery.STREAM_CHUNKS) {
                List<HeldRequests.Held> following = held.partWaiters(part, false);
                if (!following.isEmpty()) {
                    events.addLast(new HlsEvent.PartProgress(tickets(following), part));
                }
            }
        }

        @Override
        public void partListed(Rendition r, Part part) {
            if (signer != null) {
                part.attestationLine(signer.attest(
                                ObjectKind.PART,
                                ObjectNames.prefix(r.track),
                                part.msn(),
                                part.index(),
                                part,
                                nowEpochS())
                        .tagBytes());
            }
            stats.parts++;
            listingVersion++;
            List<HeldRequests.Held> following = held.partWaiters(part, true);
            if (!following.isEmpty()) {
                events.addLast(new HlsEvent.PartProgress(tickets(following), part));
            }
            releasePlaylists(r);
        }

        @Override
        public void segmentCompleted(Rendition r, Segment segment) {
            if (signer != null) {
                segment.attestationLine(signer.attest(
                                ObjectKind.SEGMENT,
                                ObjectNames.prefix(r.track),
                                segment.msn(),
                                -1,
                                segment,
                                nowEpochS())
                        .tagBytes());
            }
            stats.segments++;
            listingVersion++;
            held.remapPastLastPart(r.track, segment.msn(), segment.parts().size());
            releasePlaylists(r);
            Rendition leader = rendition(layout.leader());
            if (leader.listedCount() > 0 && !dateRanges.isEmpty()) {
                dateRanges.expire(leader.listed(0).programDateTimeMs(), nowNs, mediaWriter.canSkipUntilS());
            }
            releaseMultivariant();
        }

        @Override
        public void objectRetired(MediaObject object) {
            events.addLast(new HlsEvent.ObjectRetired(object));
        }
    }
}
