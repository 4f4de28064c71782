package io.tern.nostr.store.sqlite;

import java.nio.file.Path;

/**
 * How the SQLite store runs.
 *
 * @param path the database file (created if missing; {@code -wal} and {@code -shm} files beside it)
 * @param synchronousFull {@code PRAGMA synchronous=FULL}: each committed batch is fsynced before
 *     its OKs go out, so an acknowledged event survives power loss; NORMAL (false) survives a crash
 *     of the process but not of the machine, and commits faster
 * @param readConnections queries running at once, each on its own connection (others wait their turn)
 * @param maxWriteBatch events committed together at most
 * @param sliceNs a query's turn on the reader thread before the next one's (strfry's time slice)
 * @param rowsPerStep rows read between clock checks within a slice
 */
public record SqliteStoreConfig(
        Path path, boolean synchronousFull, int readConnections, int maxWriteBatch, long sliceNs, int rowsPerStep) {
    public SqliteStoreConfig {
        if (path == null) {
            throw new IllegalArgumentException("db: a database path is required");
        }
        if (readConnections < 1 || readConnections > 64) {
            throw new IllegalArgumentException("db-read-connections must be 1..64, got " + readConnections);
        }
        if (maxWriteBatch < 1) {
            throw new IllegalArgumentException("db-write-batch must be >= 1, got " + maxWriteBatch);
        }
        if (sliceNs < 1 || rowsPerStep < 1) {
            throw new IllegalArgumentException("query slice must be positive, got " + sliceNs + " ns / " + rowsPerStep);
        }
    }

    /** FULL sync, 2 readers, batches of up to 512 events, 5 ms slices checked every 50 rows. */
    public static SqliteStoreConfig defaults(Path path) {
        return new SqliteStoreConfig(path, true, 2, 512, 5_000_000L, 50);
    }
}
