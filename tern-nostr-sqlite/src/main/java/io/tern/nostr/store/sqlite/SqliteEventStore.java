package io.tern.nostr.store.sqlite;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.QueryScheduler;
import io.tern.nostr.store.StoreAgent;
import io.tern.nostr.store.StoreCompletionSink;
import java.sql.SQLException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The embedded store: SQLite in WAL mode behind two agents, which the server runs each on a
 * thread of its own and a test steps by hand. The writer ({@link SqliteWriteAgent}) commits what
 * is waiting in one transaction and only then completes it, so the engine's OK always follows the
 * commit; the reader ({@link SqliteReadAgent}) runs queries and counts in time slices on its read
 * connections, timed by the injected monotonic clock (a fake in tests). The engine in
 * {@code tern-nostr} never sees this class: its adapter carries the engine's store requests out
 * here and hands the completions back to the engine's thread.
 */
public final class SqliteEventStore implements EventStore {
    private final SqliteBackend backend;
    private final SqliteWriteAgent writer;
    private final SqliteReadAgent reader;

    private SqliteEventStore(
            SqliteBackend backend, SqliteStoreConfig config, StoreCompletionSink sink, LongSupplier nanoClock) {
        this.backend = backend;
        this.writer = new SqliteWriteAgent(backend, sink, config.maxWriteBatch());
        this.reader = new SqliteReadAgent(new QueryScheduler(
                backend, sink, nanoClock, config.sliceNs(), config.rowsPerStep(), config.readConnections()));
    }

    /**
     * Opens the database. Nothing is answered until its {@link #agents()} run.
     *
     * @param deletionEnabled whether kind 5 deletes (NIP-09); when off it is stored as any event
     * @param sink receives every completion, on the thread stepping the agent that emitted it
     * @param nanoClock monotonic nanoseconds, read by the reader to end each query's time slice
     *     ({@code System::nanoTime} in production)
     * @throws SQLException when the database cannot be opened
     */
    public static SqliteEventStore open(
            SqliteStoreConfig config, boolean deletionEnabled, StoreCompletionSink sink, LongSupplier nanoClock)
            throws SQLException {
        return new SqliteEventStore(SqliteBackend.open(config, deletionEnabled), config, sink, nanoClock);
    }

    /** The writer and the reader, to run until {@link #close()}. */
    @Override
    public List<StoreAgent> agents() {
        return List.of(writer, reader);
    }

    public SqliteWriteAgent writer() {
        return writer;
    }

    public SqliteReadAgent reader() {
        return reader;
    }

    @Override
    public void write(long requestId, Event event) {
        writer.write(requestId, event);
    }

    @Override
    public void query(long requestId, List<Filter> filters, long nowSeconds) {
        reader.query(requestId, filters, nowSeconds, false);
    }

    @Override
    public void count(long requestId, List<Filter> filters, long nowSeconds) {
        reader.query(requestId, filters, nowSeconds, true);
    }

    @Override
    public void cancel(long requestId) {
        reader.cancel(requestId);
    }

    @Override
    public void purgeExpired(long nowSeconds) {
        writer.purgeExpired(nowSeconds);
    }

    public long committedBatches() {
        return writer.committedBatches.get();
    }

    public long committedEvents() {
        return writer.committedEvents.get();
    }

    public long purgedEvents() {
        return writer.purgedEvents.get();
    }

    public long failedBatches() {
        return writer.failedBatches.get();
    }

    /** Closes the reader's cursors and the database; the agents must have stopped. */
    @Override
    public void close() {
        reader.clear();
        backend.close();
    }
}
