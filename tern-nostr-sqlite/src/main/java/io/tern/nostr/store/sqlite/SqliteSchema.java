package io.tern.nostr.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tables. {@code events} holds one row per stored event with its wire JSON; {@code address}
 * ({@code kind:pubkey:d}) is set for replaceable and addressable kinds and unique, which is the
 * replacement rule's key. {@code tags} holds each one-letter tag's first value, the only part of a
 * tag a filter can select, with created_at copied in so a tag query can be ordered from the index.
 */
final class SqliteSchema {
    static final int VERSION = 1;

    private static final String[] DDL = {
        """
        CREATE TABLE IF NOT EXISTS events (
          seq INTEGER PRIMARY KEY,
          id BLOB NOT NULL UNIQUE,
          pubkey BLOB NOT NULL,
          created_at INTEGER NOT NULL,
          kind INTEGER NOT NULL,
          address TEXT,
          expiration INTEGER,
          json BLOB NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS events_created_at ON events(created_at DESC, id)",
        "CREATE INDEX IF NOT EXISTS events_author_kind ON events(pubkey, kind, created_at DESC, id)",
        "CREATE INDEX IF NOT EXISTS events_kind ON events(kind, created_at DESC, id)",
        "CREATE UNIQUE INDEX IF NOT EXISTS events_address ON events(address) WHERE address IS NOT NULL",
        "CREATE INDEX IF NOT EXISTS events_expiration ON events(expiration) WHERE expiration IS NOT NULL",
        """
        CREATE TABLE IF NOT EXISTS tags (
          name TEXT NOT NULL,
          value TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          PRIMARY KEY (name, value, created_at, seq)
        ) WITHOUT ROWID""",
        "CREATE INDEX IF NOT EXISTS tags_seq ON tags(seq)",
        "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', " + VERSION + ")",
    };

    private SqliteSchema() {}

    static void create(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
            try (var rs = s.executeQuery("SELECT value FROM meta WHERE key = 'schema_version'")) {
                int version = rs.next() ? rs.getInt(1) : -1;
                if (version != VERSION) {
                    throw new SQLException("database schema version " + version + ", this Tern reads " + VERSION);
                }
            }
        }
    }
}
