package io.tern.nostr.store.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The tables, as the SQLite store's with PostgreSQL types, and the migrations that make them.
 * {@code nostr_events} holds one row per stored event with its wire JSON and {@code seq}, the
 * sequence id the bus reads by; {@code origin} is the node that stored it (its own bus skips it).
 * {@code nostr_tags} holds each one-letter tag's first value. {@code nostr_meta} records the schema
 * version.
 *
 * <p>Migrations run under a session advisory lock ({@link #MIGRATION_LOCK}): nodes starting at once
 * on an empty database take turns, and each after the first finds the version already current. A
 * plain {@code CREATE TABLE IF NOT EXISTS} from two sessions at once fails in one of them on
 * {@code pg_type}'s unique index, which is what mattn/nostr-relay ran into.
 */
public final class PostgresSchema {
    /** The advisory lock key of migrations ("tern" "nost" as two ints). */
    static final long MIGRATION_LOCK = 0x7465726e_6e6f7374L;

    /** Taken per write transaction: it orders {@code seq} as commits are ordered (see {@link PostgresWriter}). */
    static final long WRITE_LOCK = 0x7465726e_77726974L;

    /** The channel the bus listens on. */
    public static final String CHANNEL = "tern_nostr";

    /** Migration {@code i} brings the schema from version {@code i} to {@code i + 1}. */
    private static final List<String[]> MIGRATIONS = List.<String[]>of(new String[] {
        """
        CREATE TABLE nostr_events (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id BYTEA NOT NULL UNIQUE,
          pubkey BYTEA NOT NULL,
          created_at BIGINT NOT NULL,
          kind INTEGER NOT NULL,
          address TEXT,
          expiration BIGINT,
          origin BIGINT NOT NULL,
          stored_ms BIGINT NOT NULL,
          json BYTEA NOT NULL
        )""",
        "CREATE INDEX nostr_events_created_at ON nostr_events(created_at DESC, id)",
        "CREATE INDEX nostr_events_author_kind ON nostr_events(pubkey, kind, created_at DESC, id)",
        "CREATE INDEX nostr_events_kind ON nostr_events(kind, created_at DESC, id)",
        "CREATE UNIQUE INDEX nostr_events_address ON nostr_events(address) WHERE address IS NOT NULL",
        "CREATE INDEX nostr_events_expiration ON nostr_events(expiration) WHERE expiration IS NOT NULL",
        """
        CREATE TABLE nostr_tags (
          name TEXT NOT NULL,
          value TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          seq BIGINT NOT NULL,
          PRIMARY KEY (name, value, created_at, seq)
        )""",
        "CREATE INDEX nostr_tags_seq ON nostr_tags(seq)",
        // Ephemeral events too big for a NOTIFY payload wait here for the other nodes, briefly.
        """
        CREATE UNLOGGED TABLE nostr_ephemeral (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id BYTEA NOT NULL,
          origin BIGINT NOT NULL,
          stored_ms BIGINT NOT NULL,
          json BYTEA NOT NULL
        )""",
    });

    static final int VERSION = MIGRATIONS.size();

    private PostgresSchema() {}

    /**
     * Brings the database to {@link #VERSION}, under the migration lock; refuses a newer one.
     *
     * @return the migrations this call ran (0 when another node or an earlier start already had)
     */
    static int migrate(Connection c) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            s.execute("SELECT pg_advisory_lock(" + MIGRATION_LOCK + ")");
            try {
                c.setAutoCommit(false);
                s.execute("CREATE TABLE IF NOT EXISTS nostr_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)");
                int version;
                try (ResultSet rs = s.executeQuery("SELECT value FROM nostr_meta WHERE key = 'schema_version'")) {
                    version = rs.next() ? rs.getInt(1) : 0;
                }
                if (version > VERSION) {
                    c.rollback();
                    throw new SQLException("database schema version " + version + ", this Tern reads " + VERSION);
                }
                for (int v = version; v < VERSION; v++) {
                    for (String ddl : MIGRATIONS.get(v)) {
                        s.execute(ddl);
                    }
                }
                s.execute("INSERT INTO nostr_meta(key, value) VALUES ('schema_version', " + VERSION + ")"
                        + " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value");
                c.commit();
                return VERSION - version;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
                s.execute("SELECT pg_advisory_unlock(" + MIGRATION_LOCK + ")");
            }
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }
}
