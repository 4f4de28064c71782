package io.tern.nostr.store.sqlite;

import io.tern.nostr.event.Hex;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.Cursor;
import io.tern.nostr.store.StoredEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Read connections, used by the store's reader thread only. Each open cursor holds one connection
 * to itself, so its read transaction starts when it does and ends when it closes: a query never
 * runs on a snapshot older than itself (an event already acknowledged is always visible to a REQ
 * sent after the OK). The {@code QueryScheduler} keeps no more cursors open than there are
 * connections.
 */
final class SqliteReader implements AutoCloseable {
    private static final int STATEMENTS_PER_CONNECTION = 64;

    private final ArrayDeque<Reader> idle = new ArrayDeque<>();
    private final List<Reader> all;

    SqliteReader(List<Connection> connections) {
        this.all = connections.stream().map(Reader::new).toList();
        idle.addAll(all);
    }

    Cursor openQuery(Filter filter, long nowSeconds) {
        return open(FilterSql.query(filter, nowSeconds), true);
    }

    Cursor openCount(List<Filter> filters, long nowSeconds) {
        return open(FilterSql.count(filters, nowSeconds), false);
    }

    private Cursor open(FilterSql q, boolean events) {
        Reader r = idle.pollFirst();
        if (r == null) {
            throw new IllegalStateException("more cursors open than read connections");
        }
        try {
            PreparedStatement s = r.statement(q.sql.toString());
            for (int i = 0; i < q.params.size(); i++) {
                Object p = q.params.get(i);
                if (p instanceof byte[] b) {
                    s.setBytes(i + 1, b);
                } else if (p instanceof Long l) {
                    s.setLong(i + 1, l);
                } else {
                    s.setString(i + 1, (String) p);
                }
            }
            return new SqlCursor(r, s.executeQuery(), events);
        } catch (SQLException e) {
            idle.addFirst(r);
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        for (Reader r : all) {
            try {
                r.connection.close();
            } catch (SQLException ignored) {
                // closing anyway
            }
        }
    }

    /** One read connection and its prepared statements, least recently used evicted. */
    private static final class Reader {
        final Connection connection;
        final Map<String, PreparedStatement> statements;

        Reader(Connection connection) {
            this.connection = connection;
            this.statements = new LinkedHashMap<>(STATEMENTS_PER_CONNECTION, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                    if (size() <= STATEMENTS_PER_CONNECTION) {
                        return false;
                    }
                    try {
                        eldest.getValue().close();
                    } catch (SQLException ignored) {
                        // evicted either way
                    }
                    return true;
                }
            };
        }

        PreparedStatement statement(String sql) throws SQLException {
            PreparedStatement s = statements.get(sql);
            if (s == null) {
                s = connection.prepareStatement(sql);
                statements.put(sql, s);
            }
            return s;
        }
    }

    private final class SqlCursor implements Cursor {
        private final Reader reader;
        private final ResultSet rs;
        private final boolean events;
        private boolean closed;

        SqlCursor(Reader reader, ResultSet rs, boolean events) {
            this.reader = reader;
            this.rs = rs;
            this.events = events;
        }

        @Override
        public int step(int maxRows, List<SerializedEvent> out) {
            int n = 0;
            try {
                while (n < maxRows && rs.next()) {
                    if (events && out != null) {
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
            try {
                rs.close();
            } catch (SQLException ignored) {
                // the statement is reset when reused anyway
            }
            idle.addFirst(reader);
        }
    }
}
