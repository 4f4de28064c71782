package io.tern.bench.origin.viewer;

import io.tern.bench.origin.playlist.MediaPlaylist;
import java.util.ArrayList;
import java.util.List;

/** A recorder that keeps every call, for tests. */
final class RecordingRecorder implements ViewerRecorder {
    record Completed(RequestKind kind, long latencyNs, long bytes) {}

    record Delivered(String rendition, RequestKind kind, long msn, int part) {}

    record Released(long msn, int part) {}

    final List<Completed> completed = new ArrayList<>();
    final List<RequestKind> failedKinds = new ArrayList<>();
    final List<Failure> failures = new ArrayList<>();
    final List<Delivered> delivered = new ArrayList<>();
    final List<Released> released = new ArrayList<>();
    final List<ViewerEvent> events = new ArrayList<>();

    @Override
    public void completed(RequestKind kind, long latencyNs, long bodyBytes, long nowNs) {
        completed.add(new Completed(kind, latencyNs, bodyBytes));
    }

    @Override
    public void failed(RequestKind kind, Failure cause, long nowNs) {
        failedKinds.add(kind);
        failures.add(cause);
    }

    @Override
    public void delivered(String rendition, int renditionIndex, RequestKind kind, long msn, int part, long nowNs) {
        delivered.add(new Delivered(rendition, kind, msn, part));
    }

    @Override
    public void released(MediaPlaylist playlist, long msn, int part, long nowNs) {
        released.add(new Released(msn, part));
    }

    @Override
    public void event(ViewerEvent event, long nowNs) {
        events.add(event);
    }
}
