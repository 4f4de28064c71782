package io.tern.nostr.store;

import io.tern.nostr.event.SerializedEvent;
import java.util.List;

/** An open, incremental read over a store, stepped a few rows at a time by {@link QueryScheduler}. */
public interface Cursor extends AutoCloseable {
    /**
     * Reads up to {@code maxRows} more rows, adding their events to {@code out} unless it is null
     * (a count), and returns how many rows were read; fewer than {@code maxRows} means exhausted.
     */
    int step(int maxRows, List<SerializedEvent> out);

    @Override
    void close();
}
