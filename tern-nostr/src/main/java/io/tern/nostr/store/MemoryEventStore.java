package io.tern.nostr.store;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@link EventStore} over {@link MemoryEvents}, run by hand: requests wait until {@link #runPending}
 * executes them on the caller's thread and emits their completions, so a test decides exactly
 * when "the commit" happens and can check that nothing is answered before it.
 */
public final class MemoryEventStore implements EventStore {
    private final MemoryEvents events;
    private final StoreCompletionSink sink;
    private final QueryScheduler scheduler;
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private final List<Event> writeBatch = new ArrayList<>();
    private final List<Long> writeIds = new ArrayList<>();

    /** @param nanoTime clock for query time slices (a fake in tests) */
    public MemoryEventStore(
            MemoryEvents events, StoreCompletionSink sink, LongSupplier nanoTime, long sliceNs, int rowsPerStep) {
        this.events = events;
        this.sink = sink;
        this.scheduler = new QueryScheduler(events, sink, nanoTime, sliceNs, rowsPerStep, Integer.MAX_VALUE);
    }

    /** A clock that never moves: each query completes within one slice. */
    public MemoryEventStore(MemoryEvents events, StoreCompletionSink sink) {
        this(events, sink, () -> 0L, 1, 64);
    }

    public MemoryEvents events() {
        return events;
    }

    @Override
    public void write(long requestId, Event event) {
        writeBatch.add(event);
        writeIds.add(requestId);
    }

    @Override
    public void query(long requestId, List<Filter> filters, long nowSeconds) {
        pending.add(() -> scheduler.addQuery(requestId, filters, nowSeconds));
    }

    @Override
    public void count(long requestId, List<Filter> filters, long nowSeconds) {
        pending.add(() -> scheduler.addCount(requestId, filters, nowSeconds));
    }

    @Override
    public void cancel(long requestId) {
        pending.add(() -> scheduler.cancel(requestId));
    }

    @Override
    public void purgeExpired(long nowSeconds) {
        pending.add(() -> events.purgeExpired(nowSeconds));
    }

    /** Requests not yet run: writes waiting for their commit, queries, counts. */
    public int pendingRequests() {
        return writeBatch.size() + pending.size() + scheduler.pending();
    }

    /**
     * Commits the waiting writes as one batch, then runs the other requests and every query slice
     * until none is left, emitting completions to the sink.
     */
    public void runPending() {
        commitWrites();
        while (!pending.isEmpty()) {
            pending.poll().run();
        }
        while (scheduler.runSlice()) {
            // round robin until every query is done
        }
    }

    /** Commits the waiting writes only, leaving queries and counts waiting. */
    public void commitWrites() {
        if (writeBatch.isEmpty()) {
            return;
        }
        List<WriteOutcome> outcomes = events.writeBatch(writeBatch);
        for (int i = 0; i < outcomes.size(); i++) {
            sink.complete(new StoreCompletion.Written(writeIds.get(i), outcomes.get(i), null));
        }
        writeBatch.clear();
        writeIds.clear();
    }

    /** Runs one query slice (after the queued requests); false when no query is left. */
    public boolean runOneSlice() {
        while (!pending.isEmpty()) {
            pending.poll().run();
        }
        return scheduler.runSlice();
    }

    @Override
    public void close() {
        scheduler.clear();
        pending.clear();
        writeBatch.clear();
        writeIds.clear();
    }
}
