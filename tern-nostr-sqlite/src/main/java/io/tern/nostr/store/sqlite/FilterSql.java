package io.tern.nostr.store.sqlite;

import io.tern.nostr.event.Hex;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.TagCondition;
import java.util.ArrayList;
import java.util.List;

/**
 * A filter as SQL: the WHERE condition with {@code ?} placeholders and the values to bind. The
 * text depends only on the filter's shape (which fields, how many values), so statements are
 * cached by it.
 */
final class FilterSql {
    final StringBuilder sql = new StringBuilder(128);
    final List<Object> params = new ArrayList<>();

    /** {@code SELECT id, created_at, json ... ORDER BY created_at DESC, id LIMIT ?}. */
    static FilterSql query(Filter f, long nowSeconds) {
        FilterSql q = new FilterSql();
        q.sql.append("SELECT e.id, e.created_at, e.json FROM events e WHERE ");
        q.condition(f);
        q.unexpired(nowSeconds);
        q.sql.append(" ORDER BY e.created_at DESC, e.id LIMIT ?");
        q.params.add((long) f.limit());
        return q;
    }

    /** {@code SELECT seq ...} over every event matching any filter, for a count. */
    static FilterSql count(List<Filter> filters, long nowSeconds) {
        FilterSql q = new FilterSql();
        q.sql.append("SELECT e.seq FROM events e WHERE (");
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
            sql.append(" AND e.id");
            hexList(f.ids());
        }
        if (f.authors() != null) {
            sql.append(" AND e.pubkey");
            hexList(f.authors());
        }
        if (f.kinds() != null) {
            sql.append(" AND e.kind IN (");
            for (int i = 0; i < f.kinds().length; i++) {
                sql.append(i == 0 ? "?" : ",?");
                params.add((long) f.kinds()[i]);
            }
            sql.append(')');
        }
        for (TagCondition t : f.tags()) {
            sql.append(" AND e.seq IN (SELECT t.seq FROM tags t WHERE t.name = ? AND t.value IN (");
            params.add(t.name());
            int i = 0;
            for (String v : t.values()) {
                sql.append(i++ == 0 ? "?" : ",?");
                params.add(v);
            }
            sql.append("))");
        }
    }

    /** {@code IN (?,..)} of 32-byte blobs; an empty list becomes {@code IN ()}, which SQLite reads as false. */
    private void hexList(java.util.Set<String> values) {
        sql.append(" IN (");
        int i = 0;
        for (String v : values) {
            sql.append(i++ == 0 ? "?" : ",?");
            params.add(Hex.decode(v));
        }
        sql.append(')');
    }
}
