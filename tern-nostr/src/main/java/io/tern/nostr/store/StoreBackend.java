package io.tern.nostr.store;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import java.util.List;

/** The synchronous half of a store, driven by its threads (or by a test). */
public interface StoreBackend extends AutoCloseable {
    /** Decides and commits a batch in one transaction, in order; one outcome per event. */
    List<WriteOutcome> writeBatch(List<Event> events);

    /** The filter's unexpired matches, newest first, ties by lowest id, at most {@code filter.limit()}. */
    Cursor openQuery(Filter filter, long nowSeconds);

    /** Every distinct unexpired event matching any of the filters, in no particular order. */
    Cursor openCount(List<Filter> filters, long nowSeconds);

    /** Deletes what expired at or before {@code nowSeconds}; returns how many events went. */
    int purgeExpired(long nowSeconds);

    @Override
    void close();
}
