package io.tern.bench.origin.testing;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerEvent;
import io.tern.bench.origin.viewer.ViewerRecorder;

/** A recorder that ignores everything, for tests that look at requests only. */
public final class NullRecorder implements ViewerRecorder {
    @Override
    public void completed(RequestKind kind, long latencyNs, long bodyBytes, long nowNs) {}

    @Override
    public void failed(RequestKind kind, Failure cause, long nowNs) {}

    @Override
    public void delivered(String rendition, int renditionIndex, RequestKind kind, long msn, int part, long nowNs) {}

    @Override
    public void released(MediaPlaylist playlist, long msn, int part, long nowNs) {}

    @Override
    public void event(ViewerEvent event, long nowNs) {}
}
