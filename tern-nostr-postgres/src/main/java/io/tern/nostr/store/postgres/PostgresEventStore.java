package io.tern.nostr.store.postgres;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.QueryScheduler;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.StoreCompletionSink;
import io.tern.nostr.store.WriteOutcome;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The shared store: PostgreSQL behind two threads, shaped as the SQLite store. The writer thread
 * takes whatever writes are waiting (up to {@code maxWriteBatch}), decides and inserts them in one
 * transaction, commits, and only then completes them, so the engine's OK always follows the
 * commit; a batch that fails (the database is down) completes every write in it with
 * {@link WriteOutcome#ERROR} and its message, and the next batch tries again on a fresh
 * connection. The reader thread runs queries and counts in time slices on pooled connections,
 * timed by the injected monotonic clock. Several nodes may run one each on the same database;
 * {@link PostgresEventBus} carries what one stores to the others.
 */
public final class PostgresEventStore implements EventStore {
    private static final Object STOP = new Object();

    private final PostgresBackend backend;
    private final StoreCompletionSink sink;
    private final int maxWriteBatch;
    private final LinkedBlockingQueue<Object> writes = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Object> reads = new LinkedBlockingQueue<>();
    private final QueryScheduler scheduler;
    private final Thread writerThread;
    private final Thread readerThread;
    private final AtomicLong committedBatches = new AtomicLong();
    private final AtomicLong committedEvents = new AtomicLong();
    private final AtomicLong purgedEvents = new AtomicLong();
    private final AtomicLong failedBatches = new AtomicLong();

    private record Write(long requestId, Event event) {}

    private record Purge(long nowSeconds) {}

    private record Query(long requestId, List<Filter> filters, long nowSeconds, boolean count) {}

    private record Cancel(long requestId) {}

    private PostgresEventStore(
            PostgresBackend backend, PostgresStoreConfig config, StoreCompletionSink sink, LongSupplier nanoClock) {
        this.backend = backend;
        this.sink = sink;
        this.maxWriteBatch = config.maxWriteBatch();
        this.scheduler = new QueryScheduler(
                backend, sink, nanoClock, config.sliceNs(), config.rowsPerStep(), config.readConnections());
        this.writerThread = new Thread(this::runWriter, "tern-nostr-postgres-writer");
        this.readerThread = new Thread(this::runReader, "tern-nostr-postgres-reader");
        writerThread.setDaemon(true);
        readerThread.setDaemon(true);
    }

    /**
     * Opens the database and starts the store's threads.
     *
     * @param deletionEnabled whether kind 5 deletes (NIP-09); when off it is stored as any event
     * @param sink receives every completion, on the store's threads
     * @param nanoClock monotonic nanoseconds, read on the reader thread to end each query's time
     *     slice ({@code System::nanoTime} in production)
     * @throws SQLException when the database cannot be reached or migrated; the message names it
     */
    public static PostgresEventStore open(
            PostgresStoreConfig config, boolean deletionEnabled, StoreCompletionSink sink, LongSupplier nanoClock)
            throws SQLException {
        PostgresEventStore store =
                new PostgresEventStore(PostgresBackend.open(config, deletionEnabled), config, sink, nanoClock);
        store.writerThread.start();
        store.readerThread.start();
        return store;
    }

    @Override
    public void write(long requestId, Event event) {
        writes.add(new Write(requestId, event));
    }

    @Override
    public void query(long requestId, List<Filter> filters, long nowSeconds) {
        reads.add(new Query(requestId, filters, nowSeconds, false));
    }

    @Override
    public void count(long requestId, List<Filter> filters, long nowSeconds) {
        reads.add(new Query(requestId, filters, nowSeconds, true));
    }

    @Override
    public void cancel(long requestId) {
        reads.add(new Cancel(requestId));
    }

    @Override
    public void purgeExpired(long nowSeconds) {
        writes.add(new Purge(nowSeconds));
    }

    /** The backend, whose {@link PostgresBackend#origin()} the node's bus needs. */
    public PostgresBackend backend() {
        return backend;
    }

    public long committedBatches() {
        return committedBatches.get();
    }

    public long committedEvents() {
        return committedEvents.get();
    }

    public long purgedEvents() {
        return purgedEvents.get();
    }

    public long failedBatches() {
        return failedBatches.get();
    }

    private void runWriter() {
        List<Object> taken = new ArrayList<>(maxWriteBatch);
        List<Event> events = new ArrayList<>(maxWriteBatch);
        List<Long> ids = new ArrayList<>(maxWriteBatch);
        try {
            while (true) {
                taken.add(writes.take());
                writes.drainTo(taken, maxWriteBatch - 1);
                boolean stop = false;
                List<Purge> purges = new ArrayList<>(0);
                for (Object o : taken) {
                    if (o == STOP) {
                        stop = true;
                    } else if (o instanceof Write w) {
                        events.add(w.event());
                        ids.add(w.requestId());
                    } else if (o instanceof Purge p) {
                        purges.add(p);
                    }
                }
                commit(events, ids);
                for (Purge p : purges) {
                    purge(p.nowSeconds());
                }
                taken.clear();
                events.clear();
                ids.clear();
                if (stop) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void commit(List<Event> events, List<Long> ids) {
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

    private void runReader() {
        try {
            while (true) {
                Object request = scheduler.idle() ? reads.take() : reads.poll();
                while (request != null) {
                    if (request == STOP) {
                        scheduler.clear();
                        return;
                    }
                    accept(request);
                    request = reads.poll();
                }
                scheduler.runSlice();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            scheduler.clear();
        }
    }

    private void accept(Object request) {
        if (request instanceof Query q) {
            if (q.count()) {
                scheduler.addCount(q.requestId(), q.filters(), q.nowSeconds());
            } else {
                scheduler.addQuery(q.requestId(), q.filters(), q.nowSeconds());
            }
        } else if (request instanceof Cancel c) {
            scheduler.cancel(c.requestId());
        }
    }

    /** Finishes the writes already submitted, stops both threads and closes the database. */
    @Override
    public void close() {
        writes.add(STOP);
        reads.add(STOP);
        try {
            writerThread.join(TimeUnit.SECONDS.toMillis(30));
            readerThread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        backend.close();
    }
}
