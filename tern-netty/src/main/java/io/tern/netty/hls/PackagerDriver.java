package io.tern.netty.hls;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.hls.media.Chunk;
import io.tern.hls.media.MediaObject;
import io.tern.hls.packager.LlHlsPackager;
import io.tern.hls.packager.ObjectNames;
import io.tern.hls.packager.PackagerStats;
import io.tern.hls.playlist.PlaylistRequest;
import io.tern.hls.serve.HlsEvent;
import io.tern.hls.serve.ObjectAnswer;
import io.tern.hls.serve.PlaylistAnswer;
import io.tern.media.AccessUnit;
import io.tern.media.TrackType;
import io.tern.media.codec.CodecConfig;
import io.tern.netty.http.BodyStream;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.SharedBody;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Drives one stream's {@link LlHlsPackager} on one event loop, as the TURN shards drive their
 * engines: every input (a frame, a request, the timer) goes in with the loop's time, then the
 * packager's outputs are drained until only its next deadline is left, and one timer is armed for
 * it. The driver owns the packager, the clock, that timer, and the one map from the packager's
 * tickets to the exchanges it holds; the packager's deadline is a held request's only timeout
 * (held exchanges have no timer of their own, {@link HttpExchange#hold()}).
 *
 * <p>Outputs: held playlist requests are answered from {@code PlaylistReady}/{@code
 * RequestFailed}, the preload-hinted part is streamed from {@code PartProgress}, retired objects
 * leave the {@link BodyCache}, and {@code ChunkWritten}/{@code StreamEnded} go to the media
 * listener (the recording). Every media byte served is the packager's, kept once off the heap
 * ({@link DirectChunkStore}): complete objects from one shared body of views of it, the growing
 * part's chunks as views. Confined to the loop: the ingest calls it there, and requests hop there.
 */
public final class PackagerDriver {
    private static final CacheControl MULTIVARIANT_CACHE = CacheControl.maxAge(1);

    private final LlHlsPackager packager;
    private final EventLoop loop;
    private final ServingCounters counters;
    private final Consumer<HlsEvent> media;
    private final BodyCache bodies;
    private final Long2ObjectHashMap<HeldRequest> held = new Long2ObjectHashMap<>();
    private final LoopBatches<HeldRequest> releases;
    private final CacheControl plainReloadCache;
    private final CacheControl blockingReloadCache;
    private final EngineLoop engineLoop;
    private boolean closed;

    /**
     * @param cacheBytes the media bytes this stream's shared bodies may pin
     * @param media told of {@code ChunkWritten} and {@code StreamEnded} (what a recording needs)
     */
    public PackagerDriver(
            LlHlsPackager packager,
            EventLoop loop,
            long cacheBytes,
            ServingCounters counters,
            Consumer<HlsEvent> media) {
        this.packager = packager;
        this.loop = loop;
        this.counters = counters;
        this.media = media;
        this.bodies = new BodyCache(cacheBytes);
        this.releases = new LoopBatches<>(loop, PackagerDriver::answerReleased);
        this.engineLoop = new EngineLoop(new LoopClock(loop), new EngineLoop.Driver() {
            @Override
            public long drainOutputs() {
                return PackagerDriver.this.drainOutputs();
            }

            @Override
            public void onTimeout(long nowNs) {
                packager.onTimeout(nowNs);
            }
        });
        int partTargetMs = packager.config().partTargetMs();
        int segmentTargetMs = packager.config().segmentTargetMs();
        this.plainReloadCache = CacheControl.maxAgeBelow(Duration.ofMillis(partTargetMs));
        this.blockingReloadCache = CacheControl.maxAge(3L * ((segmentTargetMs + 999) / 1000));
    }

    public EventLoop eventLoop() {
        return loop;
    }

    /** This loop turn's time, the one clock every input is stamped with. */
    public long nowNs() {
        return engineLoop.nowNs();
    }

    /** The packager's own counters (read from any thread). */
    public PackagerStats stats() {
        return packager.stats();
    }

    /** Requests held now. */
    public int heldCount() {
        return held.size();
    }

    // ---------------------------------------------------------------- ingest

    /** A track's configuration; false if the packager refused it. */
    public boolean onConfig(CodecConfig config) {
        boolean accepted = packager.onConfig(config, nowNs());
        engineLoop.drain();
        return accepted;
    }

    public void onAccessUnit(AccessUnit unit) {
        packager.onAccessUnit(unit, nowNs());
        engineLoop.drain();
    }

    public void onEndOfStream() {
        packager.onEndOfStream(nowNs());
        engineLoop.drain();
    }

    // ---------------------------------------------------------------- requests

    /**
     * {@code index.m3u8}. {@code deferred}: the exchange was already held on its own loop before
     * it hopped here.
     */
    public void multivariant(HttpExchange exchange, boolean deferred) {
        answer(exchange, packager.multivariantPlaylist(nowNs()), Served.MULTIVARIANT, MULTIVARIANT_CACHE, deferred);
        engineLoop.drain();
    }

    /** {@code video.m3u8} or {@code audio.m3u8} with its delivery directives. */
    public void mediaPlaylist(HttpExchange exchange, TrackType track, PlaylistRequest request, boolean deferred) {
        boolean blocking = request.blocking();
        answer(
                exchange,
                packager.mediaPlaylist(track, request, nowNs()),
                blocking ? Served.BLOCKING_PLAYLIST : Served.PLAYLIST,
                blocking ? blockingReloadCache : plainReloadCache,
                deferred);
        engineLoop.drain();
    }

    /** An init segment, part or segment by its name under the instance's directory. */
    public void object(HttpExchange exchange, String file, boolean deferred) {
        switch (packager.object(file, nowNs())) {
            case ObjectAnswer.Found found -> sendObject(exchange, found.object(), kindOf(file));
            case ObjectAnswer.NotFound notFound -> Replies.error(exchange, 404, "no " + file + " in this stream");
            case ObjectAnswer.Error error -> Replies.error(exchange, error.status(), error.reason());
            case ObjectAnswer.Growing growing -> holdPart(exchange, growing, deferred);
        }
        engineLoop.drain();
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
        if (!deferred && !holdOrGiveUp(exchange, growing.ticket())) {
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

    /** Keeps {@code exchange} under the packager's {@code ticket} until an output answers it. */
    private void hold(HttpExchange exchange, long ticket, HeldRequest request, boolean deferred) {
        if (!deferred && !holdOrGiveUp(exchange, ticket)) {
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

    /** Holds an exchange of this loop; false (and the ticket given up) when the held limits refuse it. */
    private boolean holdOrGiveUp(HttpExchange exchange, long ticket) {
        if (exchange.hold()) {
            return true;
        }
        packager.cancel(ticket);
        return false;
    }

    private void cancel(long ticket) {
        if (release(ticket) != null && !closed) {
            packager.cancel(ticket);
            engineLoop.drain();
        }
    }

    private HeldRequest release(long ticket) {
        HeldRequest request = held.remove(ticket);
        if (request != null) {
            counters.heldDelta(-1);
        }
        return request;
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
     * store keeps, uncopied; with {@code last} the final chunk also ends the body, in one write and
     * flush (a flush is a send system call, and the part's end comes with every viewer's blocking
     * reload).
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

    // ---------------------------------------------------------------- the packager's outputs

    /** Carries out the packager's queued outputs; returns its next deadline. */
    private long drainOutputs() {
        for (HlsEvent event; (event = packager.pollEvent()) != null; ) {
            switch (event) {
                case HlsEvent.PlaylistReady ready -> releasePlaylists(ready);
                case HlsEvent.RequestFailed failed -> fail(failed);
                case HlsEvent.PartProgress progress -> partProgress(progress);
                case HlsEvent.ObjectRetired retired -> bodies.retired(retired.object());
                case HlsEvent.ChunkWritten chunk -> media.accept(chunk);
                case HlsEvent.StreamEnded ended -> media.accept(ended);
            }
        }
        return packager.nextDeadlineNs();
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

    /** Held requests the packager gave up on: 503 past their deadline, 404 when their part never came. */
    private void fail(HlsEvent.RequestFailed failed) {
        for (long ticket : failed.tickets()) {
            HeldRequest request = release(ticket);
            if (request == null) {
                continue;
            }
            if (failed.status() == 503) {
                counters.heldRequestTimedOut();
            }
            if (request.body != null) {
                request.body.abort(); // the headers went out: cut the body so the client sees it
            } else {
                Replies.error(request.exchange, failed.status(), failed.reason());
            }
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

    // ---------------------------------------------------------------- the end

    /**
     * Frees what the stream holds (its owner is done with it): the timer, every held request
     * (404, or a cut body), the shared bodies and the packager's media. Idempotent.
     */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        engineLoop.close();
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
        packager.close(nowNs());
    }
}
