package io.tern.bench.origin.load;

import io.tern.bench.origin.viewer.Exchange;
import io.tern.bench.origin.viewer.Viewer;

/** A viewer engine with its two connections, on one event loop. */
final class ViewerSession {
    private final ViewerLoop loop;
    private final int id;
    private final Viewer viewer;
    private final HttpConnection[] connections = new HttpConnection[2];
    long scheduledNs = Long.MAX_VALUE;

    ViewerSession(ViewerLoop loop, int id, Viewer viewer) {
        this.loop = loop;
        this.id = id;
        this.viewer = viewer;
        connections[Exchange.PLAYLISTS] = new HttpConnection(this, Exchange.PLAYLISTS);
        connections[Exchange.MEDIA] = new HttpConnection(this, Exchange.MEDIA);
    }

    ViewerLoop loop() {
        return loop;
    }

    Viewer viewer() {
        return viewer;
    }

    int id() {
        return id;
    }

    /** Drains the viewer's outputs: sends every ready request, then re-arms its timer. */
    void flush(long nowNs) {
        for (int c = 0; c < connections.length; c++) {
            Exchange ex = viewer.exchange(c);
            if (ex.state() == Exchange.State.READY) {
                connections[c].send(ex, nowNs);
            }
        }
        loop.reschedule(this);
    }

    void checkTimeouts(long nowNs, long timeoutNs) {
        for (HttpConnection c : connections) {
            c.checkTimeout(nowNs, timeoutNs);
        }
    }

    void stop() {
        viewer.stop();
        for (HttpConnection c : connections) {
            c.close();
        }
    }

    long connects() {
        return connections[0].connects() + connections[1].connects();
    }
}
