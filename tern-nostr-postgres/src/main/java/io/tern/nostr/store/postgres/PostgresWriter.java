package io.tern.nostr.store.postgres;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.Hex;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.event.Tags;
import io.tern.nostr.store.MemoryEvents;
import io.tern.nostr.store.WriteOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One write transaction: a batch of events decided and inserted by the same rules as
 * {@link MemoryEvents} (and the SQLite store's writer), on a connection borrowed for the batch.
 *
 * <p>Every write transaction of every node first takes {@link PostgresSchema#WRITE_LOCK}, a
 * transaction advisory lock, so write transactions run one at a time across the fleet. That
 * makes two things hold: the decisions (is this id stored, which version holds an address, is it
 * deleted) never race with another node's, and {@code seq} values are handed out in commit order,
 * since a transaction takes its values while it holds the lock and the lock is released after its
 * commit is visible. A bus that has read up to {@code seq} N therefore never sees a row below N
 * commit later, and reading {@code seq > N} misses nothing. The cost is one writer at a time per
 * database, which is why writes go in batches.
 */
final class PostgresWriter {
    private final boolean deletionEnabled;
    private final long origin;

    PostgresWriter(boolean deletionEnabled, long origin) {
        this.deletionEnabled = deletionEnabled;
        this.origin = origin;
    }

    /** One transaction for the whole batch, committed before this returns; on failure nothing of it is. */
    List<WriteOutcome> writeBatch(Connection c, List<Event> events) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + PostgresSchema.WRITE_LOCK + ")");
            }
            Statements st = new Statements(c);
            List<WriteOutcome> outcomes = new ArrayList<>(events.size());
            boolean stored = false;
            for (Event e : events) {
                WriteOutcome o = write(st, e);
                stored |= o == WriteOutcome.STORED;
                outcomes.add(o);
            }
            if (stored) {
                // Delivered to listeners at commit, and only if it commits: the bus's wake-up.
                try (Statement s = c.createStatement()) {
                    s.execute("NOTIFY " + PostgresSchema.CHANNEL + ", 'stored'");
                }
            }
            c.commit();
            return outcomes;
        } catch (SQLException | RuntimeException ex) {
            rollbackQuietly(c);
            throw ex;
        }
    }

    /** Deletes what expired at or before {@code nowSeconds}, in one transaction; returns how many events went. */
    int purgeExpired(Connection c, long nowSeconds) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + PostgresSchema.WRITE_LOCK + ")");
            }
            int n;
            try (PreparedStatement tags = c.prepareStatement("DELETE FROM nostr_tags WHERE seq IN"
                            + " (SELECT seq FROM nostr_events WHERE expiration IS NOT NULL AND expiration <= ?)");
                    PreparedStatement events = c.prepareStatement(
                            "DELETE FROM nostr_events WHERE expiration IS NOT NULL AND expiration <= ?")) {
                tags.setLong(1, nowSeconds);
                tags.executeUpdate();
                events.setLong(1, nowSeconds);
                n = events.executeUpdate();
            }
            // Large ephemeral events are read by the other nodes within moments; a minute is plenty.
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM nostr_ephemeral WHERE stored_ms < "
                        + "(extract(epoch from clock_timestamp()) * 1000)::bigint - 60000");
            }
            c.commit();
            return n;
        } catch (SQLException | RuntimeException ex) {
            rollbackQuietly(c);
            throw ex;
        }
    }

    private WriteOutcome write(Statements st, Event e) throws SQLException {
        byte[] id = e.idBytes();
        st.exists.setBytes(1, id);
        if (hasRow(st.exists)) {
            return WriteOutcome.DUPLICATE;
        }
        String address = e.address();
        if (deletionEnabled && e.kind() != KindClass.DELETION && isDeleted(st, e, address)) {
            return WriteOutcome.DELETED;
        }
        if (address != null) {
            st.atAddress.setString(1, address);
            long oldSeq = -1;
            try (ResultSet rs = st.atAddress.executeQuery()) {
                if (rs.next()) {
                    long oldCreatedAt = rs.getLong(2);
                    byte[] oldId = rs.getBytes(3);
                    boolean newer = e.createdAt() != oldCreatedAt
                            ? e.createdAt() > oldCreatedAt
                            : Arrays.compareUnsigned(id, oldId) < 0;
                    if (!newer) {
                        return WriteOutcome.SUPERSEDED;
                    }
                    oldSeq = rs.getLong(1);
                }
            }
            if (oldSeq >= 0) {
                delete(st, oldSeq);
            }
        }
        insert(st, e, address);
        if (deletionEnabled && e.kind() == KindClass.DELETION) {
            applyDeletion(st, e);
        }
        return WriteOutcome.STORED;
    }

    private static boolean isDeleted(Statements st, Event e, String address) throws SQLException {
        st.deletedById.setString(1, e.id());
        st.deletedById.setBytes(2, e.pubkeyBytes());
        if (hasRow(st.deletedById)) {
            return true;
        }
        if (address == null) {
            return false;
        }
        st.deletedByAddress.setString(1, address);
        st.deletedByAddress.setBytes(2, e.pubkeyBytes());
        st.deletedByAddress.setLong(3, e.createdAt());
        return hasRow(st.deletedByAddress);
    }

    private void insert(Statements st, Event e, String address) throws SQLException {
        st.insertEvent.setBytes(1, e.idBytes());
        st.insertEvent.setBytes(2, e.pubkeyBytes());
        st.insertEvent.setLong(3, e.createdAt());
        st.insertEvent.setInt(4, e.kind());
        st.insertEvent.setString(5, address);
        if (e.expiration() >= 0) {
            st.insertEvent.setLong(6, e.expiration());
        } else {
            st.insertEvent.setNull(6, java.sql.Types.BIGINT);
        }
        st.insertEvent.setLong(7, origin);
        st.insertEvent.setBytes(8, e.json());
        long seq;
        try (ResultSet rs = st.insertEvent.executeQuery()) {
            rs.next();
            seq = rs.getLong(1);
        }
        boolean anyTag = false;
        for (List<String> tag : e.tags()) {
            if (Tags.isIndexed(tag)) {
                st.insertTag.setString(1, tag.get(0));
                st.insertTag.setString(2, tag.get(1));
                st.insertTag.setLong(3, e.createdAt());
                st.insertTag.setLong(4, seq);
                st.insertTag.addBatch();
                anyTag = true;
            }
        }
        if (anyTag) {
            st.insertTag.executeBatch();
        }
    }

    private static void applyDeletion(Statements st, Event d) throws SQLException {
        List<Long> doomed = new ArrayList<>();
        for (List<String> tag : d.tags()) {
            if (tag.size() < 2) {
                continue;
            }
            if (tag.get(0).equals("e") && Hex.isLowerHex(tag.get(1), 64)) {
                st.authoredById.setBytes(1, Hex.decode(tag.get(1)));
                st.authoredById.setBytes(2, d.pubkeyBytes());
                collect(st.authoredById, doomed);
            } else if (tag.get(0).equals("a")) {
                st.authoredByAddress.setString(1, tag.get(1));
                st.authoredByAddress.setBytes(2, d.pubkeyBytes());
                st.authoredByAddress.setLong(3, d.createdAt());
                collect(st.authoredByAddress, doomed);
            }
        }
        for (long seq : doomed) {
            delete(st, seq);
        }
    }

    private static void delete(Statements st, long seq) throws SQLException {
        st.deleteTags.setLong(1, seq);
        st.deleteTags.executeUpdate();
        st.deleteEvent.setLong(1, seq);
        st.deleteEvent.executeUpdate();
    }

    private static boolean hasRow(PreparedStatement s) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            return rs.next();
        }
    }

    private static void collect(PreparedStatement s, List<Long> into) throws SQLException {
        try (ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                into.add(rs.getLong(1));
            }
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the pool drops it, and the server rolled back anyway
        }
    }

    /**
     * The batch's statements, prepared on its connection. pgjdbc keeps server-side prepared
     * statements per connection by their text, so preparing these again for every batch is cheap.
     */
    private static final class Statements {
        final PreparedStatement exists;
        final PreparedStatement deletedById;
        final PreparedStatement deletedByAddress;
        final PreparedStatement atAddress;
        final PreparedStatement insertEvent;
        final PreparedStatement insertTag;
        final PreparedStatement deleteTags;
        final PreparedStatement deleteEvent;
        final PreparedStatement authoredById;
        final PreparedStatement authoredByAddress;

        Statements(Connection c) throws SQLException {
            exists = c.prepareStatement("SELECT 1 FROM nostr_events WHERE id = ?");
            deletedById = c.prepareStatement("SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.seq"
                    + " WHERE t.name = 'e' AND t.value = ? AND d.kind = 5 AND d.pubkey = ? LIMIT 1");
            deletedByAddress = c.prepareStatement("SELECT 1 FROM nostr_tags t JOIN nostr_events d ON d.seq = t.seq"
                    + " WHERE t.name = 'a' AND t.value = ? AND d.kind = 5 AND d.pubkey = ? AND d.created_at >= ?"
                    + " LIMIT 1");
            atAddress = c.prepareStatement("SELECT seq, created_at, id FROM nostr_events WHERE address = ?");
            insertEvent = c.prepareStatement("INSERT INTO nostr_events"
                    + "(id, pubkey, created_at, kind, address, expiration, origin, stored_ms, json)"
                    + " VALUES (?,?,?,?,?,?,?,(extract(epoch from clock_timestamp()) * 1000)::bigint,?)"
                    + " RETURNING seq");
            insertTag = c.prepareStatement(
                    "INSERT INTO nostr_tags(name, value, created_at, seq) VALUES (?,?,?,?) ON CONFLICT DO NOTHING");
            deleteTags = c.prepareStatement("DELETE FROM nostr_tags WHERE seq = ?");
            deleteEvent = c.prepareStatement("DELETE FROM nostr_events WHERE seq = ?");
            authoredById = c.prepareStatement("SELECT seq FROM nostr_events WHERE id = ? AND pubkey = ? AND kind != 5");
            authoredByAddress = c.prepareStatement("SELECT seq FROM nostr_events"
                    + " WHERE address = ? AND pubkey = ? AND created_at <= ? AND kind != 5");
        }
    }
}
