package io.tern.netty.stream;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Connection events of all stream listeners of a server, counted per event (never per message).
 * Shared by the relay threads; readable from any thread.
 */
public final class StreamCounters {
    private final AtomicLongArray counts = new AtomicLongArray(StreamEvent.values().length);

    void add(StreamEvent event) {
        counts.incrementAndGet(event.ordinal());
    }

    public long count(StreamEvent event) {
        return counts.get(event.ordinal());
    }
}
