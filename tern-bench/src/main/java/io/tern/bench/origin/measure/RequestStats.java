package io.tern.bench.origin.measure;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerEvent;
import io.tern.bench.origin.viewer.ViewerRecorder;
import org.HdrHistogram.Histogram;

/**
 * What the viewers of one event loop report, counted only inside the window
 * {@code [fromNs, toNs)}. One per loop and window, so nothing here is shared or locked;
 * {@link #add} merges them after the run. Latencies and delays are HdrHistograms in microseconds
 * (3 significant digits, values above a minute are clamped). {@link Phases} sends the ramp to
 * one instance and the measured window to another.
 */
public final class RequestStats implements ViewerRecorder {
    static final long HIGHEST_US = 60_000_000L;

    private static final RequestKind[] KINDS = RequestKind.values();
    private static final Failure[] FAILURES = Failure.values();

    private final MediaTimeline timeline;
    private final long fromNs;
    private final long toNs;
    private final Histogram[] latencyUs = new Histogram[KINDS.length];
    private final long[] completed = new long[KINDS.length];
    private final long[] bodyBytes = new long[KINDS.length];
    private final long[][] errors = new long[KINDS.length][FAILURES.length];
    private final long[] events = new long[ViewerEvent.values().length];
    private final Histogram partDelayUs = histogram();
    private final Histogram variantPartDelayUs = histogram();
    private final Histogram segmentDelayUs = histogram();
    private final Histogram releaseLatenessUs = histogram();
    private final Histogram timerLagUs = histogram();
    private long deliveredBeforeListed;
    private long releasedWithoutTarget;

    public RequestStats(MediaTimeline timeline, long fromNs, long toNs) {
        this.timeline = timeline;
        this.fromNs = fromNs;
        this.toNs = toNs;
        for (int i = 0; i < KINDS.length; i++) {
            latencyUs[i] = histogram();
        }
    }

    private static Histogram histogram() {
        return new Histogram(HIGHEST_US, 3);
    }

    private boolean measuring(long nowNs) {
        return nowNs >= fromNs && nowNs < toNs;
    }

    private static void record(Histogram h, long ns) {
        h.recordValue(Math.min(HIGHEST_US, Math.max(0, ns / 1000)));
    }

    @Override
    public void completed(RequestKind kind, long latencyNs, long bytes, long nowNs) {
        if (measuring(nowNs)) {
            int k = kind.ordinal();
            completed[k]++;
            bodyBytes[k] += bytes;
            record(latencyUs[k], latencyNs);
        }
    }

    @Override
    public void failed(RequestKind kind, Failure cause, long nowNs) {
        if (measuring(nowNs)) {
            errors[kind.ordinal()][cause.ordinal()]++;
        }
    }

    @Override
    public void delivered(String rendition, int renditionIndex, RequestKind kind, long msn, int part, long nowNs) {
        if (kind == RequestKind.HINTED_PART) {
            timeline.hintedPartCompleted(rendition, msn, part, nowNs);
        }
        if (!measuring(nowNs)) {
            return;
        }
        long delay = timeline.deliveryDelayNs(rendition, msn, part, nowNs);
        if (delay < 0) {
            deliveredBeforeListed++;
            delay = 0;
        }
        record(part < 0 ? segmentDelayUs : partDelayUs, delay);
        if (part >= 0 && renditionIndex == 0) {
            record(variantPartDelayUs, delay);
        }
    }

    @Override
    public void released(MediaPlaylist playlist, long msn, int part, long nowNs) {
        if (!measuring(nowNs)) {
            return;
        }
        long lateness = timeline.releaseLatenessNs(playlist, msn, part, nowNs);
        if (lateness < 0) {
            releasedWithoutTarget++;
        } else {
            record(releaseLatenessUs, lateness);
        }
    }

    @Override
    public void event(ViewerEvent event, long nowNs) {
        if (measuring(nowNs)) {
            events[event.ordinal()]++;
        }
    }

    /** The event loop's timer fired {@code lateNs} after a viewer's deadline (a generator health figure). */
    public void timerLag(long lateNs, long nowNs) {
        if (measuring(nowNs)) {
            record(timerLagUs, lateNs);
        }
    }

    /** Adds {@code other}'s counts into this one. */
    public void add(RequestStats other) {
        for (int k = 0; k < KINDS.length; k++) {
            completed[k] += other.completed[k];
            bodyBytes[k] += other.bodyBytes[k];
            latencyUs[k].add(other.latencyUs[k]);
            for (int f = 0; f < FAILURES.length; f++) {
                errors[k][f] += other.errors[k][f];
            }
        }
        for (int e = 0; e < events.length; e++) {
            events[e] += other.events[e];
        }
        partDelayUs.add(other.partDelayUs);
        variantPartDelayUs.add(other.variantPartDelayUs);
        segmentDelayUs.add(other.segmentDelayUs);
        releaseLatenessUs.add(other.releaseLatenessUs);
        timerLagUs.add(other.timerLagUs);
        deliveredBeforeListed += other.deliveredBeforeListed;
        releasedWithoutTarget += other.releasedWithoutTarget;
    }

    public long completed(RequestKind kind) {
        return completed[kind.ordinal()];
    }

    public long bodyBytes(RequestKind kind) {
        return bodyBytes[kind.ordinal()];
    }

    public long errors(RequestKind kind, Failure cause) {
        return errors[kind.ordinal()][cause.ordinal()];
    }

    public long errors(RequestKind kind) {
        long n = 0;
        for (long e : errors[kind.ordinal()]) {
            n += e;
        }
        return n;
    }

    public long events(ViewerEvent event) {
        return events[event.ordinal()];
    }

    public Histogram latencyUs(RequestKind kind) {
        return latencyUs[kind.ordinal()];
    }

    public Histogram partDelayUs() {
        return partDelayUs;
    }

    /** Part delays of the viewers' first rendition (the variant: video) alone. */
    public Histogram variantPartDelayUs() {
        return variantPartDelayUs;
    }

    public Histogram segmentDelayUs() {
        return segmentDelayUs;
    }

    public Histogram releaseLatenessUs() {
        return releaseLatenessUs;
    }

    public Histogram timerLagUs() {
        return timerLagUs;
    }

    public long deliveredBeforeListed() {
        return deliveredBeforeListed;
    }

    public long releasedWithoutTarget() {
        return releasedWithoutTarget;
    }

    /** Requests answered 200 in the window, every kind. */
    public long totalCompleted() {
        long n = 0;
        for (long c : completed) {
            n += c;
        }
        return n;
    }

    /** Requests that failed in the window, every kind and cause. */
    public long totalErrors() {
        long n = 0;
        for (RequestKind k : KINDS) {
            n += errors(k);
        }
        return n;
    }
}
