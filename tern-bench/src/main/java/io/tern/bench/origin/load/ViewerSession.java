package io.tern.bench.origin.load;

import io.tern.bench.origin.viewer.Exchange;
import io.tern.bench.origin.viewer.Viewer;

/** A viewer engine with its connections (two per rendition, made when first used), on one event loop. */
final class ViewerSession {
    private final ViewerLoop loop;
    private final int id;
    private final Viewer viewer;
    private final HttpConnection[] connections = new HttpConnection[Exchange.MAX_CONNECTIONS];
    long scheduledNs = Long.MAX_VALUE;

    ViewerSession(ViewerLoop loop, int id, Viewer viewer) {
        this.loop = loop;
        this.id = id;
        this.viewer = viewer;
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
        int n = viewer.connections();
        for (int c = 0; c < n; c++) {
            Exchange ex = viewer.exchange(c);
            if (ex.state() == Exchange.State.READY) {
                if (connections[c] == null) {
                    connections[c] = new HttpConnection(this, c);
                }
                connections[c].send(ex, nowNs);
            }
        }
        loop.reschedule(this);
    }

    void checkTimeouts(long nowNs, long timeoutNs) {
        for (HttpConnection c : connections) {
            if (c != null) {
                c.checkTimeout(nowNs, timeoutNs);
            }
        }
    }

    void stop() {
        viewer.stop();
        for (HttpConnection c : connections) {
            if (c != null) {
                c.close();
            }
        }
    }

    long connects() {
        long n = 0;
        for (HttpConnection c : connections) {
            n += c == null ? 0 : c.connects();
        }
        return n;
    }
}
