package io.tern.nostr.store.postgres;

import io.tern.nostr.event.Hex;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.Cursor;
import io.tern.nostr.store.StoredEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Query cursors, each on a pooled connection of its own inside a read-only transaction, fetched
 * from the server {@link #FETCH_ROWS} rows at a time (pgjdbc uses a portal when autocommit is off
 * and a fetch size is set), so a query's rows are read as the {@code QueryScheduler} steps it and
 * a cancelled REQ stops reading. A statement's snapshot is taken when it starts, so an event
 * acknowledged before a REQ is always visible to it.
 */
final class PostgresReader {
    static final int FETCH_ROWS = 256;

    private final DataSource pool;

    PostgresReader(DataSource pool) {
        this.pool = pool;
    }

    Cursor openQuery(Filter filter, long nowSeconds) {
        return open(PgFilterSql.query(filter, nowSeconds), false);
    }

    Cursor openCount(List<Filter> filters, long nowSeconds) {
        return open(PgFilterSql.count(filters, nowSeconds), true);
    }

    private Cursor open(PgFilterSql q, boolean count) {
        Connection c = null;
        try {
            c = pool.getConnection();
            c.setAutoCommit(false);
            c.setReadOnly(true);
            PreparedStatement s = c.prepareStatement(q.sql.toString());
            s.setFetchSize(FETCH_ROWS);
            q.bind(c, s);
            ResultSet rs = s.executeQuery();
            if (count) {
                rs.next();
                long n = rs.getLong(1);
                release(c);
                return new CountCursor(n);
            }
            return new RowCursor(c, rs);
        } catch (SQLException e) {
            if (c != null) {
                release(c);
            }
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        }
    }

    private static void release(Connection c) {
        try {
            c.rollback();
            c.setReadOnly(false);
        } catch (SQLException ignored) {
            // a broken connection: the pool evicts it
        }
        try {
            c.close();
        } catch (SQLException ignored) {
            // returned to the pool either way
        }
    }

    /**
     * A count computed by the server in one statement ({@code count(*)}), handed out in steps as a
     * row-by-row count would be: COUNT's answer is the same as the SQLite store's, but the counting
     * itself is not time-sliced.
     */
    private static final class CountCursor implements Cursor {
        private long remaining;

        CountCursor(long count) {
            this.remaining = count;
        }

        @Override
        public int step(int maxRows, List<SerializedEvent> out) {
            int n = (int) Math.min(maxRows, remaining);
            remaining -= n;
            return n;
        }

        @Override
        public void close() {}
    }

    private static final class RowCursor implements Cursor {
        private final Connection c;
        private final ResultSet rs;
        private boolean closed;

        RowCursor(Connection c, ResultSet rs) {
            this.c = c;
            this.rs = rs;
        }

        @Override
        public int step(int maxRows, List<SerializedEvent> out) {
            int n = 0;
            try {
                while (n < maxRows && rs.next()) {
                    if (out != null) {
                        out.add(new StoredEvent(Hex.encode(rs.getBytes(1)), rs.getLong(2), rs.getBytes(3)));
                    }
                    n++;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("query failed: " + e.getMessage(), e);
            }
            return n;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            release(c);
        }
    }
}
