package io.tern.server.origin.metrics;

import io.tern.hls.packager.PackagerStats;
import io.tern.netty.hls.Served;
import io.tern.netty.hls.ServingCounters;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.ToLongFunction;

/**
 * What the origin counts across its streams, for Prometheus: counted where it happens (on the
 * streams' event loops, the ingest's, the registry's), read at scrape time. What the packagers
 * produce (parts, segments, discontinuities, dropped frames) is not counted twice: the packagers'
 * own {@link PackagerStats} are read and summed. Every label value comes from a fixed set, so no
 * label grows with streams, viewers or addresses.
 */
public final class OriginCounters implements ServingCounters {
    /** Problems, by cause. */
    public enum Cause {
        /** A publish without a valid token, or refused by the --on-publish hook. */
        PUBLISH_UNAUTHORIZED,
        /** A publish on a stream that is live. */
        PUBLISH_ALREADY_LIVE,
        /** A publish with an application other than live, or a name the origin cannot serve. */
        PUBLISH_BAD_NAME,
        /** A publish past --max-streams. */
        PUBLISH_OVER_LIMIT,
        /** An ingest connection that ended other than by its publisher leaving (garbage, timeouts, limits). */
        INGEST_ABNORMAL_CLOSE,
        /** A track's timestamps jumped or went back. */
        TIMESTAMP_DISCONTINUITY,
        /** Frames the packager dropped (before a keyframe, oversized, without configuration, ...). */
        FRAMES_DROPPED,
        /** Recording bytes dropped because the disk could not keep up. */
        RECORDING_DROPPED,
        /** A held request that ended in 503 (its part did not come in three target durations). */
        HELD_REQUEST_TIMEOUT
    }

    private static final Cause[] CAUSES = Cause.values();
    private static final Served[] SERVED = Served.values();

    private final LongAdder[] errors = adders(CAUSES.length);
    private final LongAdder[] servedResponses = adders(SERVED.length);
    private final LongAdder[] servedBytes = adders(SERVED.length);
    private final LongAdder publishesAccepted = new LongAdder();
    private final LongAdder ingestBytes = new LongAdder();
    private final LongAdder accessUnits = new LongAdder();
    /** The packagers of the streams served now; guarded by {@code this}, with {@link #gonePackagers}. */
    private final Set<PackagerStats> livePackagers = new HashSet<>();
    /** The final counts of packagers that are gone, so the sums never go back. */
    private final PackagerStats gonePackagers = new PackagerStats();

    private final LongAdder heldNow = new LongAdder();
    private final Map<String, LongAdder> ingestClosed = new ConcurrentHashMap<>();

    public void error(Cause cause) {
        errors[cause.ordinal()].increment();
    }

    public void error(Cause cause, long count) {
        errors[cause.ordinal()].add(count);
    }

    public long errors(Cause cause) {
        long counted = errors[cause.ordinal()].sum();
        return cause == Cause.FRAMES_DROPPED ? counted + packagerSum(PackagerStats::framesDropped) : counted;
    }

    @Override
    public void served(Served kind, long bytes) {
        servedResponses[kind.ordinal()].increment();
        servedBytes[kind.ordinal()].add(bytes);
    }

    @Override
    public void servedBytes(Served kind, long bytes) {
        servedBytes[kind.ordinal()].add(bytes);
    }

    public long servedResponses(Served kind) {
        return servedResponses[kind.ordinal()].sum();
    }

    public long servedBytes(Served kind) {
        return servedBytes[kind.ordinal()].sum();
    }

    public void publishAccepted() {
        publishesAccepted.increment();
    }

    public long publishesAccepted() {
        return publishesAccepted.sum();
    }

    public void ingest(int bytes) {
        accessUnits.increment();
        ingestBytes.add(bytes);
    }

    public long ingestBytes() {
        return ingestBytes.sum();
    }

    public long accessUnits() {
        return accessUnits.sum();
    }

    /** A stream's packager started: its own counters are read from now on. */
    public synchronized void packagerStarted(PackagerStats stats) {
        livePackagers.add(stats);
    }

    /** A stream's packager is closed: its final counts join the totals, in one step with the scrape. */
    public synchronized void packagerGone(PackagerStats stats) {
        if (livePackagers.remove(stats)) {
            gonePackagers.add(stats);
        }
    }

    /** Parts produced, both renditions, over every packager. */
    public long parts() {
        return packagerSum(PackagerStats::parts);
    }

    public long segments() {
        return packagerSum(PackagerStats::segments);
    }

    public long discontinuities() {
        return packagerSum(PackagerStats::discontinuities);
    }

    private synchronized long packagerSum(ToLongFunction<PackagerStats> counter) {
        long sum = counter.applyAsLong(gonePackagers);
        for (PackagerStats stats : livePackagers) {
            sum += counter.applyAsLong(stats);
        }
        return sum;
    }

    @Override
    public void heldDelta(int delta) {
        heldNow.add(delta);
    }

    @Override
    public void heldRequestTimedOut() {
        error(Cause.HELD_REQUEST_TIMEOUT);
    }

    /** Requests the packagers hold now: blocking playlist reloads and preload-hinted parts. */
    public long heldNow() {
        return heldNow.sum();
    }

    /**
     * An ingest connection ended; {@code reason} is one of the protocol's fixed close reasons (an
     * enum's name), so the label stays bounded.
     */
    public void ingestClosed(String protocol, String reason) {
        ingestClosed
                .computeIfAbsent(protocol + "/" + reason.toLowerCase(Locale.ROOT), k -> new LongAdder())
                .increment();
    }

    /** Calls {@code visitor(protocol, reason, count)} for every close counted. */
    public void forEachIngestClose(IngestCloseVisitor visitor) {
        ingestClosed.forEach((key, count) -> {
            int slash = key.indexOf('/');
            visitor.visit(key.substring(0, slash), key.substring(slash + 1), count.sum());
        });
    }

    /** Calls {@code visitor} for every cause, zero or not. */
    public void forEachError(BiConsumer<Cause, Long> visitor) {
        for (Cause cause : CAUSES) {
            visitor.accept(cause, errors(cause));
        }
    }

    @FunctionalInterface
    public interface IngestCloseVisitor {
        void visit(String protocol, String reason, long count);
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] out = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            out[i] = new LongAdder();
        }
        return out;
    }
}
