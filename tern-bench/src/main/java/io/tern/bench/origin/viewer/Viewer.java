package io.tern.bench.origin.viewer;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.MultivariantPlaylist;
import io.tern.bench.origin.playlist.Playlist;
import java.util.List;

/**
 * One simulated player, as an engine with no sockets and no clock: answers and time go in, the
 * request slots ({@link #exchange}) and {@link #nextDeadlineNs()} come out. Each rendition has two
 * connections, as hls.js has a playlist loader and a fragment loader per rendition: one for its
 * playlist ({@link Exchange#playlistConnection}), one for its init segment, segments and parts
 * ({@link Exchange#mediaConnection}), each carrying one request at a time. A stream with audio
 * muxed into the variant (nginx-rtmp) therefore uses two connections per viewer, one with a
 * separate audio rendition (Tern) four; sharing one media connection between the renditions made
 * each rendition's held preload hint delay the other's parts by up to a part. The subclasses
 * decide what to ask for: {@link ClassicViewer} polls and fetches segments,
 * {@link LowLatencyViewer} blocks on reloads and fetches parts.
 *
 * <p>The viewer joins at {@code startAtNs}: it loads the entry playlist (multivariant or media)
 * on connection 0, then the first variant's playlist and, when {@code allRenditions} and the
 * variant has a separate audio rendition, that one too.
 */
public abstract class Viewer {
    /** Retry delay before any playlist has told the target duration. */
    static final long DEFAULT_RETRY_NS = 500_000_000L;

    static final int MAX_RENDITIONS = 2;

    /** Per-rendition state: the latest playlist, the next media position, the reload schedule. */
    static final class Rendition {
        final int index;
        final String playlistPath;
        MediaPlaylist latest;
        String initFetched;
        boolean joined;
        boolean ended;
        long nextMsn;
        int nextPart;
        long playlistDueNs;
        long mediaRetryNs;
        boolean needFullReload;

        Rendition(int index, String playlistPath, long dueNs) {
            this.index = index;
            this.playlistPath = playlistPath;
            this.playlistDueNs = dueNs;
        }
    }

    protected final ViewerRecorder recorder;
    private final String entryPath;
    private final boolean allRenditions;
    private final long startAtNs;
    private final Exchange[] exchanges = new Exchange[Exchange.MAX_CONNECTIONS];
    final Rendition[] renditions = new Rendition[MAX_RENDITIONS];
    int renditionCount;
    private boolean started;
    private boolean stopped;
    private long entryRetryNs = Long.MAX_VALUE;
    private long deadlineNs;

    protected Viewer(String entryPath, boolean allRenditions, long startAtNs, ViewerRecorder recorder) {
        this.entryPath = entryPath;
        this.allRenditions = allRenditions;
        this.startAtNs = startAtNs;
        this.recorder = recorder;
        this.deadlineNs = startAtNs;
        for (int i = 0; i < exchanges.length; i++) {
            exchanges[i] = new Exchange(i);
        }
    }

    /** The request slot of connection {@code connection}; the adapter sends it when {@code READY}. */
    public final Exchange exchange(int connection) {
        return exchanges[connection];
    }

    /** Connections this viewer uses now: two per rendition (two before it knows its renditions). */
    public final int connections() {
        return 2 * Math.max(1, renditionCount);
    }

    /** When {@link #onTimer} must next be called; {@code Long.MAX_VALUE} for never. */
    public final long nextDeadlineNs() {
        return deadlineNs;
    }

    public final boolean started() {
        return started;
    }

    public final void onTimer(long nowNs) {
        if (!started && !stopped && nowNs >= startAtNs) {
            started = true;
            exchanges[Exchange.playlistConnection(0)].prepare(
                    RequestKind.MULTIVARIANT, -1, entryPath, 0, 0, SkipMode.NONE);
        }
        pump(nowNs);
    }

    /** No more requests: the run is over. In-flight answers are still accepted and ignored. */
    public final void stop() {
        stopped = true;
        deadlineNs = Long.MAX_VALUE;
    }

    /** A 200 answer on a playlist connection, parsed. */
    public final void onPlaylist(Exchange ex, Playlist playlist, long bodyBytes, long nowNs) {
        ex.finish();
        if (stopped) {
            return;
        }
        if (ex.kind() == RequestKind.MULTIVARIANT) {
            if (playlist instanceof MultivariantPlaylist mv) {
                recorder.completed(RequestKind.MULTIVARIANT, nowNs - ex.sentNs(), bodyBytes, nowNs);
                List<String> paths = mv.playlistsOfFirstVariant();
                int n = allRenditions ? Math.min(paths.size(), MAX_RENDITIONS) : 1;
                for (int i = 0; i < n; i++) {
                    renditions[renditionCount++] = new Rendition(i, paths.get(i), nowNs);
                }
            } else {
                // The entry is itself a media playlist (nginx-rtmp): the single rendition.
                recorder.completed(RequestKind.PLAYLIST, nowNs - ex.sentNs(), bodyBytes, nowNs);
                Rendition r = new Rendition(0, ex.path(), nowNs);
                renditions[renditionCount++] = r;
                mediaPlaylist(r, (MediaPlaylist) playlist, ex, nowNs);
            }
        } else if (playlist instanceof MediaPlaylist mp) {
            recorder.completed(ex.kind(), nowNs - ex.sentNs(), bodyBytes, nowNs);
            mediaPlaylist(renditions[ex.rendition()], mp, ex, nowNs);
        } else {
            fail(ex, Failure.MALFORMED, false, nowNs);
            return;
        }
        pump(nowNs);
    }

    /** A 200 answer on a media connection, its body fully received. */
    public final void onMedia(Exchange ex, long bodyBytes, long nowNs) {
        ex.finish();
        if (stopped) {
            return;
        }
        Rendition r = renditions[ex.rendition()];
        recorder.completed(ex.kind(), nowNs - ex.sentNs(), bodyBytes, nowNs);
        switch (ex.kind()) {
            case INIT -> r.initFetched = ex.path();
            case SEGMENT -> recorder.delivered(r.playlistPath, r.index, RequestKind.SEGMENT, ex.msn(), -1, nowNs);
            case PART, HINTED_PART ->
                recorder.delivered(r.playlistPath, r.index, ex.kind(), ex.msn(), ex.part(), nowNs);
            default -> throw new IllegalStateException("media answer for " + ex.kind());
        }
        pump(nowNs);
    }

    /** An answer that is not 200. */
    public final void onStatus(Exchange ex, int status, long nowNs) {
        ex.finish();
        if (!stopped) {
            fail(ex, Failure.ofStatus(status), status == 404, nowNs);
        }
    }

    /** No answer: the connection failed, the request timed out, or the answer was malformed. */
    public final void onFailure(Exchange ex, Failure cause, long nowNs) {
        ex.finish();
        if (!stopped) {
            fail(ex, cause, false, nowNs);
        }
    }

    private void fail(Exchange ex, Failure cause, boolean notFound, long nowNs) {
        ex.finish();
        recorder.failed(ex.kind(), cause, nowNs);
        long retryAt = nowNs + retryDelayNs();
        if (ex.kind() == RequestKind.MULTIVARIANT) {
            entryRetryNs = retryAt;
        } else if (ex.kind().playlist()) {
            renditions[ex.rendition()].playlistDueNs = retryAt;
        } else {
            Rendition r = renditions[ex.rendition()];
            if (!notFound || ex.kind() == RequestKind.INIT) {
                // Ask for the same item again after the delay; a 404 item is gone, so move on.
                if (ex.kind() != RequestKind.INIT) {
                    r.nextMsn = ex.msn();
                    r.nextPart = Math.max(0, ex.part());
                }
                r.mediaRetryNs = retryAt;
            }
        }
        pump(nowNs);
    }

    private void mediaPlaylist(Rendition r, MediaPlaylist mp, Exchange ex, long nowNs) {
        if (ex.blocking()) {
            recorder.released(mp, ex.msn(), ex.part(), nowNs);
        }
        r.latest = mp;
        if (!r.joined) {
            join(r, mp);
            r.joined = true;
        } else if (r.nextMsn < mp.mediaSequence()) {
            recorder.event(ViewerEvent.REJOIN, nowNs);
            join(r, mp);
        } else if (r.nextMsn < mp.firstListedMsn() && !r.needFullReload) {
            r.needFullReload = true;
            recorder.event(ViewerEvent.FULL_RELOAD_NEEDED, nowNs);
        }
        if (mp.skippedSegments() == 0) {
            r.needFullReload = false;
        }
        r.ended = mp.endList();
        r.playlistDueNs = r.ended ? Long.MAX_VALUE : nextPlaylistDueNs(r, mp, ex.sentNs(), nowNs);
    }

    private long retryDelayNs() {
        for (int i = 0; i < renditionCount; i++) {
            if (renditions[i].latest != null) {
                return renditions[i].latest.targetDurationUs() * 500L;
            }
        }
        return DEFAULT_RETRY_NS;
    }

    /** Fills idle request slots, then recomputes the deadline. Called after every input. */
    private void pump(long nowNs) {
        if (stopped) {
            deadlineNs = Long.MAX_VALUE;
            return;
        }
        if (!started) {
            deadlineNs = startAtNs;
            return;
        }
        long next = Long.MAX_VALUE;
        if (renditionCount == 0) {
            Exchange p = exchanges[Exchange.playlistConnection(0)];
            if (p.state() == Exchange.State.IDLE) {
                if (nowNs >= entryRetryNs) {
                    entryRetryNs = Long.MAX_VALUE;
                    p.prepare(RequestKind.MULTIVARIANT, -1, entryPath, 0, 0, SkipMode.NONE);
                } else {
                    next = entryRetryNs;
                }
            }
        }
        for (int i = 0; i < renditionCount; i++) {
            Rendition r = renditions[i];
            Exchange p = exchanges[Exchange.playlistConnection(i)];
            if (p.state() == Exchange.State.IDLE) {
                next = Math.min(next, choosePlaylist(r, p, nowNs));
            }
            Exchange m = exchanges[Exchange.mediaConnection(i)];
            if (m.state() == Exchange.State.IDLE) {
                next = Math.min(next, chooseMedia(r, m, nowNs));
            }
        }
        deadlineNs = next;
    }

    /** Prepares the rendition's playlist request if it is due, or returns when it will be. */
    private long choosePlaylist(Rendition r, Exchange ex, long nowNs) {
        if (r.playlistDueNs > nowNs) {
            return r.playlistDueNs;
        }
        if (r.latest == null) {
            ex.prepare(RequestKind.PLAYLIST, r.index, r.playlistPath, 0, 0, SkipMode.NONE);
        } else {
            preparePlaylist(r, r.latest, ex);
        }
        return Long.MAX_VALUE;
    }

    /**
     * Prepares the rendition's next media request: its init segment first, then what is
     * available now (a listed part or segment), else the preload hint, which the server holds
     * until the part is written. Returns the retry time when nothing can be asked for yet.
     */
    private long chooseMedia(Rendition r, Exchange ex, long nowNs) {
        if (r.latest == null || !r.joined) {
            return Long.MAX_VALUE;
        }
        if (nowNs < r.mediaRetryNs) {
            return r.mediaRetryNs;
        }
        String map = r.latest.mapUri();
        if (map != null && !map.equals(r.initFetched)) {
            ex.prepare(RequestKind.INIT, r.index, map, 0, 0, SkipMode.NONE);
        } else {
            nextMedia(r, r.latest, ex, nowNs);
        }
        return Long.MAX_VALUE;
    }

    /** Sets the rendition's first media position from its first playlist. */
    abstract void join(Rendition r, MediaPlaylist mp);

    /** Prepares the next reload of {@code r}'s playlist, whose latest version is {@code mp}. */
    abstract void preparePlaylist(Rendition r, MediaPlaylist mp, Exchange ex);

    /** When the next reload may be sent, given the one just answered (sent at {@code sentNs}). */
    abstract long nextPlaylistDueNs(Rendition r, MediaPlaylist mp, long sentNs, long nowNs);

    /**
     * Prepares the rendition's next media request and advances its position, or returns false
     * when nothing is available yet.
     */
    abstract boolean nextMedia(Rendition r, MediaPlaylist mp, Exchange ex, long nowNs);

    /** Classic join: three segments back from the end (hls.js liveSyncDurationCount). */
    static void joinThreeSegmentsBack(Rendition r, MediaPlaylist mp) {
        r.nextMsn = Math.max(mp.firstListedMsn(), mp.lastCompleteMsn() - 2);
        r.nextPart = 0;
    }

    /** Classic reload time: half a target duration after the previous request was sent, or now if later. */
    static long halfTargetAfter(MediaPlaylist mp, long sentNs, long nowNs) {
        return Math.max(nowNs, sentNs + mp.targetDurationUs() * 500L);
    }
}
