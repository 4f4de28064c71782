package io.tern.nostr.store.sqlite;

import io.tern.nostr.event.Event;
import io.tern.nostr.store.StoreAgent;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.StoreCompletionSink;
import io.tern.nostr.store.WriteOutcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store's writer: each {@link #doWork} takes the writes waiting (up to {@code maxWriteBatch}),
 * decides and inserts them in one transaction, commits, and only then completes them, so the
 * engine's OK always follows the commit; then it runs the purges that were waiting with them.
 * Requests arrive from the engine's thread through a queue; the agent is stepped by one thread.
 */
public final class SqliteWriteAgent implements StoreAgent {
    private final SqliteBackend backend;
    private final StoreCompletionSink sink;
    private final int maxWriteBatch;
    private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** Requests taken from the inbox and not yet done: at most one batch and what came with it. */
    private final ArrayDeque<Object> taken = new ArrayDeque<>();

    private final List<Event> events;
    private final List<Long> ids;
    private final List<Purge> purges = new ArrayList<>(1);
    final AtomicLong committedBatches = new AtomicLong();
    final AtomicLong committedEvents = new AtomicLong();
    final AtomicLong purgedEvents = new AtomicLong();
    final AtomicLong failedBatches = new AtomicLong();

    private record Write(long requestId, Event event) {}

    private record Purge(long nowSeconds) {}

    SqliteWriteAgent(SqliteBackend backend, StoreCompletionSink sink, int maxWriteBatch) {
        this.backend = backend;
        this.sink = sink;
        this.maxWriteBatch = maxWriteBatch;
        this.events = new ArrayList<>(maxWriteBatch);
        this.ids = new ArrayList<>(maxWriteBatch);
    }

    /** From the engine's side (any thread). */
    void write(long requestId, Event event) {
        inbox.add(new Write(requestId, event));
    }

    /** From the engine's side (any thread). */
    void purgeExpired(long nowSeconds) {
        inbox.add(new Purge(nowSeconds));
    }

    /** Requests submitted and not yet done. */
    public int pending() {
        return inbox.size() + taken.size();
    }

    @Override
    public int doWork() {
        inbox.drainTo(taken, Math.max(0, maxWriteBatch - taken.size()));
        int worked = 0;
        for (Object o; events.size() < maxWriteBatch && (o = taken.pollFirst()) != null; worked++) {
            if (o instanceof Write w) {
                events.add(w.event());
                ids.add(w.requestId());
            } else {
                purges.add((Purge) o);
            }
        }
        commit();
        for (Purge p : purges) {
            purge(p.nowSeconds());
        }
        events.clear();
        ids.clear();
        purges.clear();
        return worked;
    }

    @Override
    public void awaitWork(long timeoutNs) throws InterruptedException {
        if (!taken.isEmpty()) {
            return;
        }
        Object o = inbox.poll(timeoutNs, TimeUnit.NANOSECONDS);
        if (o != null) {
            taken.addLast(o);
        }
    }

    @Override
    public String roleName() {
        return "tern-nostr-sqlite-writer";
    }

    private void commit() {
        if (events.isEmpty()) {
            return;
        }
        List<WriteOutcome> outcomes;
        String error = null;
        try {
            outcomes = backend.writeBatch(events);
            committedBatches.incrementAndGet();
            committedEvents.addAndGet(
                    outcomes.stream().filter(o -> o == WriteOutcome.STORED).count());
        } catch (RuntimeException e) {
            failedBatches.incrementAndGet();
            outcomes = null;
            error = String.valueOf(e.getMessage());
        }
        for (int i = 0; i < ids.size(); i++) {
            WriteOutcome o = outcomes == null ? WriteOutcome.ERROR : outcomes.get(i);
            sink.complete(new StoreCompletion.Written(ids.get(i), o, o == WriteOutcome.ERROR ? error : null));
        }
    }

    private void purge(long nowSeconds) {
        try {
            purgedEvents.addAndGet(backend.purgeExpired(nowSeconds));
        } catch (RuntimeException e) {
            failedBatches.incrementAndGet();
        }
    }
}
