package io.tern.bench.origin.measure;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerEvent;
import io.tern.bench.origin.viewer.ViewerRecorder;

/**
 * One event loop's recorder across a run: what happens before {@code measuredFromNs} (the ramp
 * and the settling time) goes to {@code warmUp}, the rest to {@code measured}. Both run the same
 * code, so by the time the window opens the recording paths are compiled: counting only inside
 * the window with a branch made the JIT compile them in the first seconds of the window, at the
 * generator's expense.
 */
public final class Phases implements ViewerRecorder {
    private final RequestStats warmUp;
    private final RequestStats measured;
    private final long measuredFromNs;

    public Phases(RequestStats warmUp, RequestStats measured, long measuredFromNs) {
        this.warmUp = warmUp;
        this.measured = measured;
        this.measuredFromNs = measuredFromNs;
    }

    private RequestStats at(long nowNs) {
        return nowNs >= measuredFromNs ? measured : warmUp;
    }

    public RequestStats measured() {
        return measured;
    }

    @Override
    public void completed(RequestKind kind, long latencyNs, long bodyBytes, long nowNs) {
        at(nowNs).completed(kind, latencyNs, bodyBytes, nowNs);
    }

    @Override
    public void failed(RequestKind kind, Failure cause, long nowNs) {
        at(nowNs).failed(kind, cause, nowNs);
    }

    @Override
    public void delivered(String rendition, int renditionIndex, RequestKind kind, long msn, int part, long nowNs) {
        at(nowNs).delivered(rendition, renditionIndex, kind, msn, part, nowNs);
    }

    @Override
    public void released(MediaPlaylist playlist, long msn, int part, long nowNs) {
        at(nowNs).released(playlist, msn, part, nowNs);
    }

    @Override
    public void event(ViewerEvent event, long nowNs) {
        at(nowNs).event(event, nowNs);
    }

    public void timerLag(long lateNs, long nowNs) {
        at(nowNs).timerLag(lateNs, nowNs);
    }
}
