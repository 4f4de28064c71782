package io.tern.server.origin.registry;

import io.netty.channel.EventLoop;
import java.net.InetSocketAddress;

/**
 * One publisher's connection as the registry sees it, whatever its protocol: the seam an ingest
 * (RTMP today, SRT next) implements, so a new ingest plugs in without touching the others.
 */
public interface IngestSession {
    /** {@code rtmp} or {@code srt}: a label for logs, stats and metrics. */
    String protocol();

    InetSocketAddress remoteAddress();

    /**
     * The loop the ingest calls {@link StreamInput} on. The stream's packager runs there too, so
     * media goes from the socket to the packager without a hop or a lock.
     */
    EventLoop eventLoop();

    /** Ends the publish from the server's side (shutdown, an operator's kick); any thread. */
    void disconnect(String reason);

    /** The SRT session's transport counters now, on {@link #eventLoop()}; null for other protocols. */
    default StreamSnapshot.Srt srt() {
        return null;
    }
}
