package io.tern.netty.rtmp;

import io.netty.channel.EventLoop;
import io.tern.rtmp.session.RtmpStats;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** One RTMP connection as the ingest handler sees it. */
public interface RtmpPublisher {
    /** Unique per listener. */
    long connectionId();

    InetSocketAddress remoteAddress();

    /** The loop every {@link RtmpIngestHandler} call for this connection runs on. */
    EventLoop eventLoop();

    /** The application from connect ({@code live}), or "" before connect. */
    String app();

    /** The name asked for in publish, without its query; null before publish. */
    String streamName();

    /** What followed {@code ?} in the publish name (a token), or "". */
    String query();

    /** The engine's counters, read on the connection's event loop. */
    CompletableFuture<RtmpStats> stats();

    /** Closes the connection with {@code reason} in its log line. */
    void close(String reason);
}
