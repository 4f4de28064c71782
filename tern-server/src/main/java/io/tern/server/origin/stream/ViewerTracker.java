package io.tern.server.origin.stream;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Viewers now, from recent requests: the client addresses that asked for one of the stream's media
 * playlists within the last {@link #WINDOW_NS} (a player reloads its playlist every part or so, a
 * CDN node counts as one viewer). Bounded by {@link #MAX_TRACKED} addresses; confined to the
 * stream's event loop.
 */
final class ViewerTracker {
    static final long WINDOW_NS = 10_000_000_000L;
    static final int MAX_TRACKED = 65_536;

    private static final class LastSeen {
        long nanos;
    }

    private final Map<InetAddress, LastSeen> seen = new HashMap<>();
    private long lastPurgeNs;

    void seen(InetAddress client, long nowNs) {
        LastSeen last = seen.get(client);
        if (last == null) {
            if (seen.size() >= MAX_TRACKED) {
                purge(nowNs);
                if (seen.size() >= MAX_TRACKED) {
                    return;
                }
            }
            last = new LastSeen();
            seen.put(client, last);
        }
        last.nanos = nowNs;
        if (nowNs - lastPurgeNs > WINDOW_NS) {
            purge(nowNs);
        }
    }

    /** Addresses tracked: those seen within the window, and some up to a window older. */
    int size() {
        return seen.size();
    }

    /** Addresses seen within the window. */
    int viewers(long nowNs) {
        purge(nowNs);
        return seen.size();
    }

    private void purge(long nowNs) {
        lastPurgeNs = nowNs;
        for (Iterator<LastSeen> it = seen.values().iterator(); it.hasNext(); ) {
            if (nowNs - it.next().nanos > WINDOW_NS) {
                it.remove();
            }
        }
    }
}
