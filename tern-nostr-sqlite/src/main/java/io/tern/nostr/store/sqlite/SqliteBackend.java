package io.tern.nostr.store.sqlite;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.Cursor;
import io.tern.nostr.store.StoreBackend;
import io.tern.nostr.store.WriteOutcome;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.sqlite.SQLiteConfig;

/**
 * SQLite in WAL mode: one write connection and a few read connections on one file. Writes
 * ({@link #writeBatch}, {@link #purgeExpired}) must come from one thread and reads
 * ({@link #openQuery}, {@link #openCount}, cursors) from one thread, which may be another.
 */
public final class SqliteBackend implements StoreBackend {
    private final SqliteWriter writer;
    private final SqliteReader reader;

    private SqliteBackend(SqliteWriter writer, SqliteReader reader) {
        this.writer = writer;
        this.reader = reader;
    }

    /**
     * Opens (creating if needed) the database.
     *
     * @throws SQLException when the file cannot be opened or holds another schema version
     */
    public static SqliteBackend open(SqliteStoreConfig config, boolean deletionEnabled) throws SQLException {
        String url = "jdbc:sqlite:" + config.path().toAbsolutePath();
        Connection write = connect(url, config, false);
        List<Connection> reads = new ArrayList<>();
        try {
            SqliteSchema.create(write);
            write.commit();
            try (Statement s = write.createStatement()) {
                // ANALYZE looks at a bounded sample of each index, so that refreshing stats stays cheap.
                s.execute("PRAGMA analysis_limit=1000");
                s.execute("PRAGMA optimize=0x10002");
            }
            SqliteWriter writer = new SqliteWriter(write, deletionEnabled);
            for (int i = 0; i < config.readConnections(); i++) {
                reads.add(connect(url, config, true));
            }
            return new SqliteBackend(writer, new SqliteReader(reads));
        } catch (SQLException | RuntimeException e) {
            write.close();
            for (Connection c : reads) {
                c.close();
            }
            throw e;
        }
    }

    private static Connection connect(String url, SqliteStoreConfig config, boolean readOnly) throws SQLException {
        SQLiteConfig c = new SQLiteConfig();
        c.setJournalMode(SQLiteConfig.JournalMode.WAL);
        c.setSynchronous(
                config.synchronousFull() ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
        c.setBusyTimeout(10_000);
        c.setTempStore(SQLiteConfig.TempStore.MEMORY);
        c.setReadOnly(readOnly);
        Properties p = c.toProperties();
        Connection conn = DriverManager.getConnection(url, p);
        if (!readOnly) {
            conn.setAutoCommit(false);
        }
        return conn;
    }

    @Override
    public List<WriteOutcome> writeBatch(List<Event> events) {
        try {
            return writer.writeBatch(events);
        } catch (SQLException e) {
            throw new IllegalStateException("write failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Cursor openQuery(Filter filter, long nowSeconds) {
        return reader.openQuery(filter, nowSeconds);
    }

    @Override
    public Cursor openCount(List<Filter> filters, long nowSeconds) {
        return reader.openCount(filters, nowSeconds);
    }

    @Override
    public int purgeExpired(long nowSeconds) {
        try {
            return writer.purgeExpired(nowSeconds);
        } catch (SQLException e) {
            throw new IllegalStateException("purge failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        reader.close();
        try {
            writer.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }
}
