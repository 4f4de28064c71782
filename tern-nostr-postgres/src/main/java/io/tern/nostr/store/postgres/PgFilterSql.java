package io.tern.nostr.store.postgres;

import io.tern.nostr.event.Hex;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A filter as SQL, as the SQLite store's {@code FilterSql} with PostgreSQL's arrays: a list of ids,
 * authors, kinds or tag values is one {@code = ANY(?)} parameter, so the text depends only on which
 * fields the filter has and how many tag conditions, and pgjdbc's per-connection cache of server
 * prepared statements keeps hitting. An empty list is an empty array, which matches nothing.
 */
final class PgFilterSql {
    final StringBuilder sql = new StringBuilder(160);
    private final List<Object> params = new ArrayList<>();

    /** A typed array parameter, made with the statement's connection. */
    private record Array(String type, Object[] values) {}

    /** {@code SELECT id, created_at, json ... ORDER BY created_at DESC, id LIMIT ?}. */
    static PgFilterSql query(Filter f, long nowSeconds) {
        PgFilterSql q = new PgFilterSql();
        q.sql.append("SELECT e.id, e.created_at, e.json FROM nostr_events e WHERE ");
        q.condition(f);
        q.unexpired(nowSeconds);
        q.sql.append(" ORDER BY e.created_at DESC, e.id LIMIT ?");
        q.params.add((long) f.limit());
        return q;
    }

    /** {@code SELECT count(*)} of the events matching any filter: each row once, whatever matched it. */
    static PgFilterSql count(List<Filter> filters, long nowSeconds) {
        PgFilterSql q = new PgFilterSql();
        q.sql.append("SELECT count(*) FROM nostr_events e WHERE (");
        for (int i = 0; i < filters.size(); i++) {
            if (i > 0) {
                q.sql.append(" OR ");
            }
            q.sql.append('(');
            q.condition(filters.get(i));
            q.sql.append(')');
        }
        q.sql.append(')');
        q.unexpired(nowSeconds);
        return q;
    }

    private void unexpired(long nowSeconds) {
        sql.append(" AND (e.expiration IS NULL OR e.expiration > ?)");
        params.add(nowSeconds);
    }

    private void condition(Filter f) {
        sql.append("e.created_at >= ?");
        params.add(f.since());
        if (f.until() != Long.MAX_VALUE) {
            sql.append(" AND e.created_at <= ?");
            params.add(f.until());
        }
        if (f.ids() != null) {
            sql.append(" AND e.id = ANY(?)");
            params.add(hex(f.ids()));
        }
        if (f.authors() != null) {
            sql.append(" AND e.pubkey = ANY(?)");
            params.add(hex(f.authors()));
        }
        if (f.kinds() != null) {
            sql.append(" AND e.kind = ANY(?)");
            Integer[] kinds = new Integer[f.kinds().length];
            for (int i = 0; i < kinds.length; i++) {
                kinds[i] = f.kinds()[i];
            }
            params.add(new Array("int4", kinds));
        }
        for (TagCondition t : f.tags()) {
            sql.append(" AND e.seq IN (SELECT t.seq FROM nostr_tags t WHERE t.name = ? AND t.value = ANY(?))");
            params.add(t.name());
            params.add(new Array("text", t.values().toArray(new String[0])));
        }
    }

    private static Array hex(Set<String> values) {
        byte[][] bytes = new byte[values.size()][];
        int i = 0;
        for (String v : values) {
            bytes[i++] = Hex.decode(v);
        }
        return new Array("bytea", bytes);
    }

    /** Binds the parameters to {@code s}, a statement prepared from {@link #sql} on {@code c}. */
    void bind(Connection c, PreparedStatement s) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof Array a) {
                s.setArray(i + 1, c.createArrayOf(a.type(), a.values()));
            } else if (p instanceof Long l) {
                s.setLong(i + 1, l);
            } else {
                s.setString(i + 1, (String) p);
            }
        }
    }
}
