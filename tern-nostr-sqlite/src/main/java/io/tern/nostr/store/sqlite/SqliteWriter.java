package io.tern.nostr.store.sqlite;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one write connection, used by the store's writer thread only: each batch of events is
 * decided and inserted in one transaction with prepared statements, by the same rules as
 * {@link MemoryEvents}.
 */
final class SqliteWriter implements AutoCloseable {
    private final Connection c;
    private final boolean deletionEnabled;
    private final PreparedStatement exists;
    private final PreparedStatement deletedById;
    private final PreparedStatement deletedByAddress;
    private final PreparedStatement atAddress;
    private final PreparedStatement insertEvent;
    private final PreparedStatement insertTag;
    private final PreparedStatement deleteTags;
    private final PreparedStatement deleteEvent;
    private final PreparedStatement authoredById;
    private final PreparedStatement authoredByAddress;
    private final PreparedStatement expired;

    SqliteWriter(Connection c, boolean deletionEnabled) throws SQLException {
        this.c = c;
        this.deletionEnabled = deletionEnabled;
        c.setAutoCommit(false);
        exists = c.prepareStatement("SELECT 1 FROM events WHERE id = ?");
        deletedById = c.prepareStatement("SELECT 1 FROM tags t JOIN events d ON d.seq = t.seq"
                + " WHERE t.name = 'e' AND t.value = ? AND d.kind = 5 AND d.pubkey = ? LIMIT 1");
        deletedByAddress = c.prepareStatement("SELECT 1 FROM tags t JOIN events d ON d.seq = t.seq"
                + " WHERE t.name = 'a' AND t.value = ? AND d.kind = 5 AND d.pubkey = ? AND d.created_at >= ? LIMIT 1");
        atAddress = c.prepareStatement("SELECT seq, created_at, id FROM events WHERE address = ?");
        insertEvent = c.prepareStatement(
                "INSERT INTO events(id, pubkey, created_at, kind, address, expiration, json) VALUES (?,?,?,?,?,?,?)"
                        + " RETURNING seq");
        insertTag = c.prepareStatement("INSERT OR IGNORE INTO tags(name, value, created_at, seq) VALUES (?,?,?,?)");
        deleteTags = c.prepareStatement("DELETE FROM tags WHERE seq = ?");
        deleteEvent = c.prepareStatement("DELETE FROM events WHERE seq = ?");
        authoredById = c.prepareStatement("SELECT seq FROM events WHERE id = ? AND pubkey = ? AND kind != 5");
        authoredByAddress = c.prepareStatement(
                "SELECT seq FROM events WHERE address = ? AND pubkey = ? AND created_at <= ? AND kind != 5");
        expired = c.prepareStatement("SELECT seq FROM events WHERE expiration IS NOT NULL AND expiration <= ?");
    }

    /** One transaction for the whole batch; on failure nothing of it is committed. */
    List<WriteOutcome> writeBatch(List<Event> events) throws SQLException {
        List<WriteOutcome> outcomes = new ArrayList<>(events.size());
        try {
            for (Event e : events) {
                outcomes.add(write(e));
            }
            c.commit();
            return outcomes;
        } catch (SQLException | RuntimeException ex) {
            c.rollback();
            throw ex;
        }
    }

    private WriteOutcome write(Event e) throws SQLException {
        byte[] id = e.idBytes();
        exists.setBytes(1, id);
        if (hasRow(exists)) {
            return WriteOutcome.DUPLICATE;
        }
        String address = e.address();
        if (deletionEnabled && e.kind() != KindClass.DELETION && isDeleted(e, address)) {
            return WriteOutcome.DELETED;
        }
        if (address != null) {
            atAddress.setString(1, address);
            long oldSeq = -1;
            try (ResultSet rs = atAddress.executeQuery()) {
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
                delete(oldSeq);
            }
        }
        long seq = insert(e, address);
        if (deletionEnabled && e.kind() == KindClass.DELETION) {
            applyDeletion(e);
        }
        return seq >= 0 ? WriteOutcome.STORED : WriteOutcome.ERROR;
    }

    private boolean isDeleted(Event e, String address) throws SQLException {
        deletedById.setString(1, e.id());
        deletedById.setBytes(2, e.pubkeyBytes());
        if (hasRow(deletedById)) {
            return true;
        }
        if (address == null) {
            return false;
        }
        deletedByAddress.setString(1, address);
        deletedByAddress.setBytes(2, e.pubkeyBytes());
        deletedByAddress.setLong(3, e.createdAt());
        return hasRow(deletedByAddress);
    }

    private long insert(Event e, String address) throws SQLException {
        insertEvent.setBytes(1, e.idBytes());
        insertEvent.setBytes(2, e.pubkeyBytes());
        insertEvent.setLong(3, e.createdAt());
        insertEvent.setInt(4, e.kind());
        insertEvent.setString(5, address);
        if (e.expiration() >= 0) {
            insertEvent.setLong(6, e.expiration());
        } else {
            insertEvent.setNull(6, java.sql.Types.INTEGER);
        }
        insertEvent.setBytes(7, e.json());
        long seq;
        try (ResultSet rs = insertEvent.executeQuery()) {
            seq = rs.next() ? rs.getLong(1) : -1;
        }
        boolean anyTag = false;
        for (List<String> tag : e.tags()) {
            if (Tags.isIndexed(tag)) {
                insertTag.setString(1, tag.get(0));
                insertTag.setString(2, tag.get(1));
                insertTag.setLong(3, e.createdAt());
                insertTag.setLong(4, seq);
                insertTag.addBatch();
                anyTag = true;
            }
        }
        if (anyTag) {
            insertTag.executeBatch();
        }
        return seq;
    }

    private void applyDeletion(Event d) throws SQLException {
        List<Long> doomed = new ArrayList<>();
        for (List<String> tag : d.tags()) {
            if (tag.size() < 2) {
                continue;
            }
            if (tag.get(0).equals("e") && Hex.isLowerHex(tag.get(1), 64)) {
                authoredById.setBytes(1, Hex.decode(tag.get(1)));
                authoredById.setBytes(2, d.pubkeyBytes());
                collect(authoredById, doomed);
            } else if (tag.get(0).equals("a")) {
                authoredByAddress.setString(1, tag.get(1));
                authoredByAddress.setBytes(2, d.pubkeyBytes());
                authoredByAddress.setLong(3, d.createdAt());
                collect(authoredByAddress, doomed);
            }
        }
        for (long seq : doomed) {
            delete(seq);
        }
    }

    /**
     * Deletes what expired at or before {@code nowSeconds}, in one transaction, then refreshes the
     * planner's statistics ({@code PRAGMA optimize}, bounded by {@code analysis_limit}): the
     * database is empty when first opened, and without statistics SQLite cannot tell a rare tag
     * from a common kind when it picks an index.
     */
    int purgeExpired(long nowSeconds) throws SQLException {
        List<Long> doomed = new ArrayList<>();
        try {
            expired.setLong(1, nowSeconds);
            collect(expired, doomed);
            for (long seq : doomed) {
                delete(seq);
            }
            c.commit();
        } catch (SQLException | RuntimeException ex) {
            c.rollback();
            throw ex;
        }
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA optimize");
        }
        c.commit();
        return doomed.size();
    }

    private void delete(long seq) throws SQLException {
        deleteTags.setLong(1, seq);
        deleteTags.executeUpdate();
        deleteEvent.setLong(1, seq);
        deleteEvent.executeUpdate();
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

    @Override
    public void close() throws SQLException {
        c.close();
    }
}
