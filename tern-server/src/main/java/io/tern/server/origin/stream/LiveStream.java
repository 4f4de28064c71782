package io.tern.server.origin.stream;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.hls.media.Chunk;
import io.tern.hls.media.MediaObject;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.ObjectNames;
import io.tern.hls.packager.PackagerStats;
import io.tern.hls.packager.StreamLayout;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.AacConfig;
import io.tern.media.codec.AvcConfig;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.http.BodyStream;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.SharedBody;
import io.tern.server.origin.config.StreamConfig;
import io.tern.server.origin.metrics.OriginCounters;
import io.tern.server.origin.metrics.OriginCounters.Cause;
import io.tern.server.origin.metrics.OriginCounters.Served;
import io.tern.server.origin.record.StreamRecording;
import io.tern.server.origin.registry.IngestSession;
import io.tern.server.origin.registry.StreamInput;
import io.tern.server.origin.registry.StreamSnapshot;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One published stream: its {@link LlHlsPackager}, driven on one event loop (the publisher's), and
 * the requests for it. The ingest calls the {@link StreamInput} methods on that loop; HTTP requests
 * for the stream hop to it ({@link #eventLoop()}), so no lock guards the media path. After every
 * input and request the packager's events are drained: held playlist requests are answered from
 * {@code PlaylistReady}/{@code RequestFailed}, the preload-hinted part is streamed from
 * {@code PartProgress}, chunks go to the recording, and the packager's timer is re-armed from
 * {@code nextDeadlineNs()}.
 *
 * <p>Every media byte served is the packager's, kept once off the heap ({@link DirectChunkStore}):
 * complete objects from one shared body of views of it ({@link BodyCache}), the growing part's
 * chunks as views.
 */
public final class LiveStream implements StreamInput {
    private static final System.Logger LOG = System.getLogger("tern.origin");
    /** The exchange's own timeout, past the packager's hold (which answers 503 itself). */
    private static final long HOLD_GRACE_MS = 5000;

    private static final CacheControl MULTIVARIANT_CACHE = CacheControl.maxAge(1);

    private final String name;
    private final String instanceId;
    private final StreamConfig settings;
    private final IngestSession session;
    private final EventLoop loop;
    private final StreamContext context;
    private final OriginCounters counters;
    private final long startedEpochMs;
    private final long startedNs;
    private final LayoutProbe probe = new LayoutProbe();
    private final Long2ObjectHashMap<HeldRequest> held = new Long2ObjectHashMap<>();
    private final BodyCache bodies;
    private final ViewerTracker viewers = new ViewerTracker();
    private final IngestMeter meter;
    private final ArrayDeque<String> lastErrors = new ArrayDeque<>();
    private final CacheControl plainReloadCache;
    private final CacheControl blockingReloadCache;
    private final Runnable onTimer = this::onTimer;
    private final LoopBatches<HeldRequest> releases;
    private LlHlsPackager packager;
    private StreamRecording recording;
    private AvcConfig video;
    private AacConfig audio;
    private long accessUnits;
    private long ingestJumps;
    private long partsCounted;
    private long segmentsCounted;
    private long discontinuitiesCounted;
    private long droppedCounted;
    private ScheduledFuture<?> timer;
    private long timerDeadlineNs = Long.MAX_VALUE;
    private volatile boolean ended;
    private volatile int viewerCount;

    public LiveStream(
            String name, String instanceId, StreamConfig settings, IngestSession session, StreamContext context) {
        this.name = name;
        this.instanceId = instanceId;
        this.settings = settings;
        this.session = session;
        this.loop = session.eventLoop();
        this.context = context;
        this.counters = context.counters();
        this.startedEpochMs = context.wallClock().millis();
        this.startedNs = now();
        this.bodies = new BodyCache(context.streamCacheBytes());
        this.meter = new IngestMeter(startedNs);
        this.plainReloadCache = CacheControl.maxAgeBelow(Duration.ofMillis(settings.partTargetMs()));
        this.blockingReloadCache = CacheControl.maxAge(3L * ((settings.segmentTargetMs() + 999) / 1000));
        this.releases = new LoopBatches<>(loop, LiveStream::answerReleased);
    }

    public String name() {
        return name;
    }

    public String instanceId() {
        return instanceId;
    }

    public IngestSession session() {
        return session;
    }

    public EventLoop eventLoop() {
        return loop;
    }

    /** Whether the publish is over (the stream lingers, with EXT-X-ENDLIST, until the registry drops it). */
    public boolean ended() {
        return ended;
    }

    /** Viewers now (read from any thread, for metrics). */
    public int viewerCount() {
        return viewerCount;
    }

    /** How long a request may be deferred on another loop before the stream answers it. */
    public long holdTimeoutMs() {
        return 3000L * ((settings.segmentTargetMs() + 999) / 1000) + HOLD_GRACE_MS;
    }

    // ---------------------------------------------------------------- ingest (on the loop)

    @Override
    public void declareLayout(StreamLayout layout) {
        if (packager == null && !ended) {
            start(layout);
        }
    }

    @Override
    public void config(CodecConfig config) {
        if (ended) {
            return;
        }
        if (config instanceof AvcConfig avc) {
            video = avc;
        } else if (config instanceof AacConfig aac) {
            audio = aac;
        }
        if (packager == null) {
            StreamLayout layout = probe.onConfig(config);
            if (layout != null) {
                start(layout);
            }
            return;
        }
        if (!packager.onConfig(config, now())) {
            error("the " + config.track() + " configuration " + config.codecs() + " was refused by the packager");
        }
        drain();
    }

    @Override
    public void accessUnit(AccessUnit unit) {
        if (ended) {
            return;
        }
        long nowNs = now();
        accessUnits++;
        counters.ingest(unit.sizeBytes());
        meter.add(unit.sizeBytes(), nowNs);
        if (packager == null) {
            StreamLayout layout = probe.onAccessUnit(unit);
            if (layout != null) {
                start(layout);
            } else if (probe.decideNow() == null && accessUnits >= LayoutProbe.MAX_UNITS) {
                probe.drain(); // frames without any configuration: nothing can be made of them
            }
            return;
        }
        packager.onAccessUnit(unit, nowNs);
        drain();
    }

    @Override
    public void discontinuity(TrackType track, String detail) {
        ingestJumps++;
        counters.error(Cause.TIMESTAMP_DISCONTINUITY);
        error(track + " timestamps: " + detail);
    }

    @Override
    public void end(String reason) {
        if (ended) {
            return;
        }
        if (packager == null) {
            StreamLayout layout = probe.decideNow();
            if (layout != null) {
                start(layout);
            }
        }
        if (packager != null) {
            packager.onEndOfStream(now());
            drain();
        }
        ended = true;
        LOG.log(System.Logger.Level.INFO, "stream " + name + " ended: " + reason);
        context.ended().accept(this);
    }

    private void start(StreamLayout layout) {
        packager = new LlHlsPackager(
                settings.packagerConfig(instanceId, context.maxHeldRequests()),
                layout,
                context.wallClock()::millis,
                new DirectChunkStore(context.directBudget(), ByteBufAllocator.DEFAULT));
        if (context.writer() != null && settings.record()) {
            recording = new StreamRecording(name, layout, context.rotateMs(), context.writer());
        }
        LOG.log(System.Logger.Level.INFO, "stream " + name + " (" + instanceId + "): " + layout);
        long nowNs = now();
        for (Object early : probe.drain()) {
            if (early instanceof CodecConfig c) {
                packager.onConfig(c, nowNs);
            } else {
                packager.onAccessUnit((AccessUnit) early, nowNs);
            }
        }
        drain();
    }

    // ---------------------------------------------------------------- requests (on the loop)

    /**
     * {@code index.m3u8}. {@code deferred}: the exchange was already deferred on its own loop
     * before it hopped here.
     */
    public void multivariant(HttpExchange exchange, boolean deferred) {
        if (packager == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        answer(exchange, packager.multivariantPlaylist(now()), Served.MULTIVARIANT, MULTIVARIANT_CACHE, deferred);
        armTimer();
    }

    /** {@code video.m3u8} or {@code audio.m3u8} with its delivery directives. */
    public void mediaPlaylist(HttpExchange exchange, TrackType track, PlaylistRequest request, boolean deferred) {
        if (packager == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        long nowNs = now();
        if (exchange.remoteAddress() != null) { // null only on channels that are not sockets (tests)
            viewers.seen(exchange.remoteAddress().getAddress(), nowNs);
            viewerCount = viewers.size();
        }
        boolean blocking = request.blocking();
        PlaylistAnswer answer = packager.mediaPlaylist(track, request, nowNs);
        answer(
                exchange,
                answer,
                blocking ? Served.BLOCKING_PLAYLIST : Served.PLAYLIST,
                blocking ? blockingReloadCache : plainReloadCache,
                deferred);
        armTimer();
    }

    /** An init segment, part or segment by its name under the instance's directory. */
    public void object(HttpExchange exchange, String file, boolean deferred) {
        if (packager == null) {
            Replies.error(exchange, 404, "the stream has no media yet");
            return;
        }
        ObjectAnswer answer = packager.object(file, now());
        switch (answer) {
            case ObjectAnswer.Found found -> sendObject(exchange, found.object(), kindOf(file));
            case ObjectAnswer.NotFound notFound -> Replies.error(exchange, 404, "no " + file + " in this stream");
            case ObjectAnswer.Error error -> Replies.error(exchange, error.status(), error.reason());
            case ObjectAnswer.Growing growing -> holdPart(exchange, growing, deferred);
        }
        armTimer();
    }

    private void answer(
            HttpExchange exchange, PlaylistAnswer answer, Served kind, CacheControl cache, boolean deferred) {
        switch (answer) {
            case PlaylistAnswer.Ready ready -> sendPlaylist(exchange, ready.body(), kind, cache);
            case PlaylistAnswer.Error error -> Replies.error(exchange, error.status(), error.reason());
            case PlaylistAnswer.Wait wait ->
                hold(exchange, wait.ticket(), new HeldRequest(exchange, kind, cache, null, 0), deferred);
        }
    }

    private void holdPart(HttpExchange exchange, ObjectAnswer.Growing growing, boolean deferred) {
        if (!deferred && !defer(exchange, growing.ticket())) {
            return;
        }
        BodyStream body = null;
        int sent = 0;
        if (growing.streaming()) {
            MediaObject part = growing.object();
            exchange.kind(Served.HINTED_PART.label());
            body =
                    exchange
                            .reply(HttpResponseStatus.OK)
                            .contentType(part.contentType())
                            .cache(CacheControl.immutable())
                            .stream();
            counters.served(Served.HINTED_PART, 0);
            sent = writeChunks(body, part, 0, false);
        }
        CacheControl cache = body == null ? CacheControl.immutable() : null; // sent whole once complete
        hold(exchange, growing.ticket(), new HeldRequest(exchange, Served.HINTED_PART, cache, body, sent), true);
    }

    /** Holds {@code exchange} under {@code ticket} until an event answers it. */
    private void hold(HttpExchange exchange, long ticket, HeldRequest request, boolean deferred) {
        if (!deferred && !defer(exchange, ticket)) {
            return;
        }
        held.put(ticket, request);
        counters.heldDelta(1);
        exchange.onCancel(() -> {
            if (loop.inEventLoop()) {
                cancel(ticket);
            } else {
                loop.execute(() -> cancel(ticket));
            }
        });
    }

    /** Defers an exchange of this loop; false (and the ticket given up) when the held limits refuse it. */
    private boolean defer(HttpExchange exchange, long ticket) {
        if (exchange.defer(holdTimeoutMs(), TimeUnit.MILLISECONDS, null)) {
            return true;
        }
        packager.cancel(ticket);
        return false;
    }

    private void cancel(long ticket) {
        HeldRequest request = held.remove(ticket);
        if (request != null) {
            counters.heldDelta(-1);
            if (packager != null) {
                packager.cancel(ticket);
            }
            armTimer();
        }
    }

    private void sendPlaylist(HttpExchange exchange, byte[] body, Served kind, CacheControl cache) {
        SharedBody shared = bodies.playlist(body);
        counters.served(kind, shared.length());
        Replies.shared(exchange, kind.label(), shared, cache);
    }

    private void sendObject(HttpExchange exchange, MediaObject object, Served kind) {
        counters.served(kind, object.sizeBytes());
        SharedBody shared = bodies.media(object);
        if (shared != null) {
            Replies.shared(exchange, kind.label(), shared, CacheControl.immutable());
        } else {
            Replies.owned(
                    exchange, kind.label(), object.contentType(), BodyCache.wrap(object), CacheControl.immutable());
        }
    }

    private static Served kindOf(String file) {
        ObjectNames.Parsed parsed = ObjectNames.parse(file);
        return switch (parsed == null ? ObjectNames.Kind.SEGMENT : parsed.kind()) {
            case INIT -> Served.INIT;
            case PART -> Served.PART;
            default -> Served.SEGMENT;
        };
    }

    /**
     * Writes chunks {@code from..} of {@code part} to {@code body}, each a view of the chunk the
     * store keeps, uncopied; with {@code last} the final chunk also ends the body, in one write and flush (a
     * flush is a send system call, and the part's end comes with every viewer's blocking reload).
     */
    private int writeChunks(BodyStream body, MediaObject part, int from, boolean last) {
        int n = part.chunkCount();
        long bytes = 0;
        for (int i = from; i < n; i++) {
            Chunk chunk = part.chunk(i);
            bytes += chunk.length();
            if (last && i == n - 1) {
                body.end(DirectChunkStore.view(chunk));
            } else {
                body.write(DirectChunkStore.view(chunk));
            }
        }
        if (last && from >= n) {
            body.end();
        }
        counters.servedBytes(Served.HINTED_PART, bytes);
        return n;
    }

    // ---------------------------------------------------------------- the packager's events

    private void drain() {
        for (HlsEvent event; (event = packager.pollEvent()) != null; ) {
            switch (event) {
                case HlsEvent.PlaylistReady ready -> releasePlaylists(ready);
                case HlsEvent.RequestFailed failed -> {
                    for (long ticket : failed.tickets()) {
                        HeldRequest request = release(ticket);
                        if (request == null) {
                            continue;
                        }
                        if (failed.status() == 503) {
                            counters.error(Cause.HELD_REQUEST_TIMEOUT);
                        }
                        if (request.body != null) {
                            request.body.abort(); // the headers went out: cut the body so the client sees it
                        } else {
                            Replies.error(request.exchange, failed.status(), failed.reason());
                        }
                    }
                }
                case HlsEvent.PartProgress progress -> partProgress(progress);
                case HlsEvent.ObjectRetired retired -> bodies.retired(retired.object());
                case HlsEvent.ChunkWritten chunk -> {
                    if (recording != null) {
                        recording.onEvent(chunk);
                    }
                }
                case HlsEvent.StreamEnded streamEnded -> {
                    if (recording != null) {
                        recording.onEvent(streamEnded);
                    }
                }
            }
        }
        countPackagerStats();
        armTimer();
    }

    /**
     * Answers every request one playlist version releases with its one shared body, grouped by
     * the loop of each connection ({@link LoopBatches}).
     */
    private void releasePlaylists(HlsEvent.PlaylistReady ready) {
        SharedBody shared = bodies.playlist(ready.body());
        for (long ticket : ready.tickets()) {
            HeldRequest request = release(ticket);
            if (request != null) {
                counters.served(request.kind, shared.length());
                releases.add(request.exchange.eventLoop(), request);
            }
        }
        releases.answerAll(shared);
    }

    /** On the exchange's loop: a released request's answer with its shared body, unless its client left. */
    private static void answerReleased(HeldRequest request, SharedBody body) {
        if (request.exchange.isOpen()) {
            request.exchange.kind(request.kind.label()).respond(body, request.cache);
        }
    }

    /**
     * The growing part's new chunks to the requests streaming it; once it is complete, those
     * waiting for it whole get its one shared body, grouped by loop as a playlist release is.
     */
    private void partProgress(HlsEvent.PartProgress progress) {
        MediaObject part = progress.part();
        SharedBody whole = null;
        boolean wholeTried = false;
        for (long ticket : progress.tickets()) {
            HeldRequest request = held.get(ticket);
            if (request == null) {
                continue;
            }
            if (request.body != null) {
                request.chunksSent = writeChunks(request.body, part, request.chunksSent, part.complete());
                if (part.complete()) {
                    release(ticket);
                }
            } else if (part.complete()) {
                release(ticket);
                if (!wholeTried) {
                    wholeTried = true;
                    whole = bodies.media(part);
                }
                if (whole != null) {
                    counters.served(Served.HINTED_PART, part.sizeBytes());
                    releases.add(request.exchange.eventLoop(), request);
                } else {
                    sendObject(request.exchange, part, Served.HINTED_PART); // too big to share: each its own view
                }
            }
        }
        if (whole != null) {
            releases.answerAll(whole);
        }
    }

    private HeldRequest release(long ticket) {
        HeldRequest request = held.remove(ticket);
        if (request != null) {
            counters.heldDelta(-1);
        }
        return request;
    }

    private void countPackagerStats() {
        PackagerStats s = packager.stats();
        for (; partsCounted < s.parts(); partsCounted++) {
            counters.partProduced();
        }
        for (; segmentsCounted < s.segments(); segmentsCounted++) {
            counters.segmentProduced();
        }
        for (; discontinuitiesCounted < s.discontinuities(); discontinuitiesCounted++) {
            counters.discontinuity();
        }
        long dropped = dropped(s);
        if (dropped > droppedCounted) {
            counters.error(Cause.FRAMES_DROPPED, dropped - droppedCounted);
            droppedCounted = dropped;
        }
    }

    private static long dropped(PackagerStats s) {
        return s.droppedNoConfig()
                + s.droppedUndeclaredTrack()
                + s.droppedOversize()
                + s.droppedBeforeKeyframe()
                + s.droppedAudioOutsideEpoch()
                + s.droppedAudioOverlap()
                + s.droppedAudioQueueFull();
    }

    // ---------------------------------------------------------------- time

    private long now() {
        return loop.ticker().nanoTime();
    }

    private void armTimer() {
        if (packager == null) {
            return;
        }
        long deadline = packager.nextDeadlineNs();
        if (deadline == Long.MAX_VALUE || (timer != null && timerDeadlineNs <= deadline)) {
            return; // a timer that fires early finds nothing due and re-arms for the later deadline
        }
        if (timer != null) {
            timer.cancel(false);
        }
        timerDeadlineNs = deadline;
        timer = loop.schedule(onTimer, Math.max(0, deadline - now()), TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        timerDeadlineNs = Long.MAX_VALUE;
        if (packager != null) {
            packager.onTimeout(now());
            drain();
        }
    }

    // ---------------------------------------------------------------- stats

    private void error(String what) {
        if (lastErrors.size() >= StreamSnapshot.MAX_ERRORS) {
            lastErrors.pollFirst();
        }
        lastErrors.addLast(java.time.Instant.ofEpochMilli(context.wallClock().millis()) + " " + what);
        LOG.log(System.Logger.Level.INFO, "stream " + name + ": " + what);
    }

    /** The stream now; call on its loop. */
    public StreamSnapshot snapshot() {
        long nowNs = now();
        PackagerStats s = packager == null ? null : packager.stats();
        StreamSnapshot.Video v = video == null
                ? null
                : new StreamSnapshot.Video(video.codecs(), video.width(), video.height(), frameRate());
        StreamSnapshot.Audio a =
                audio == null ? null : new StreamSnapshot.Audio(audio.codecs(), audio.sampleRateHz(), audio.channels());
        return new StreamSnapshot(
                name,
                instanceId,
                session.protocol(),
                session.remoteAddress().getAddress().getHostAddress() + ":"
                        + session.remoteAddress().getPort(),
                !ended,
                startedEpochMs,
                TimeUnit.NANOSECONDS.toMillis(nowNs - startedNs),
                v,
                a,
                meter.bitsPerSecond(nowNs),
                accessUnits,
                s == null ? 0 : s.parts(),
                s == null ? 0 : s.segments(),
                viewers.viewers(nowNs),
                held.size(),
                s == null ? 0 : s.discontinuities(),
                ingestJumps + (s == null ? 0 : s.timestampJumps()),
                s == null ? 0 : dropped(s),
                recording == null ? null : recording.snapshot(),
                new ArrayList<>(lastErrors),
                session.srt());
    }

    private double frameRate() {
        return video.frameRate();
    }

    /** Frees what the stream holds; the registry calls it on the loop once the stream is gone. */
    public void dispose() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        List<HeldRequest> left = new ArrayList<>(held.values());
        held.clear();
        for (HeldRequest request : left) {
            counters.heldDelta(-1);
            if (request.body != null) {
                request.body.abort();
            } else {
                Replies.error(request.exchange, 404, "the stream is gone");
            }
        }
        bodies.clear();
        if (packager != null) {
            packager.close(now());
            packager = null; // requests still queued on the loop find no media
        }
        ended = true;
    }
}
