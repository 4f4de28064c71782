package io.tern.nostr.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.store.Cursor;
import io.tern.nostr.store.StoreBackend;
import io.tern.nostr.store.WriteOutcome;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * PostgreSQL through a HikariCP pool: one connection borrowed per write batch, one per open query
 * cursor. Writes ({@link #writeBatch}, {@link #purgeExpired}) from one thread, reads from one thread
 * (which may be another), as the SQLite backend. Each backend is a node of its own: its
 * {@link #origin()} marks the rows it stores, so that its own bus does not deliver them again.
 */
public final class PostgresBackend implements StoreBackend {
    static {
        // HikariCP logs through SLF4J, which Tern does not bind: without this, every start prints
        // three "No SLF4J providers were found" lines that are no fault of the operator's.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
    }

    private final PostgresStoreConfig config;
    private final HikariDataSource pool;
    private final PostgresWriter writer;
    private final PostgresReader reader;
    private final long origin;

    private PostgresBackend(PostgresStoreConfig config, HikariDataSource pool, boolean deletionEnabled, long origin) {
        this.config = config;
        this.pool = pool;
        this.origin = origin;
        this.writer = new PostgresWriter(deletionEnabled, origin);
        this.reader = new PostgresReader(pool);
    }

    /**
     * Connects, brings the schema up to date (under the migration lock) and opens the pool.
     *
     * @throws SQLException when the server cannot be reached, refuses the login, or holds a newer
     *     schema; the message names the database (without its password)
     */
    public static PostgresBackend open(PostgresStoreConfig config, boolean deletionEnabled) throws SQLException {
        try (Connection c = connect(config)) {
            PostgresSchema.migrate(c);
        } catch (SQLException e) {
            throw new SQLException("cannot open " + config.displayUrl() + ": " + e.getMessage(), e.getSQLState(), e);
        }
        HikariConfig h = new HikariConfig();
        h.setJdbcUrl(config.jdbcUrl());
        h.setUsername(config.user());
        if (config.password() != null) {
            h.setPassword(config.password());
        }
        h.setPoolName("tern-nostr-postgres");
        // The writer's connection, the readers', and one spare for a cursor being returned.
        h.setMaximumPoolSize(config.readConnections() + 2);
        h.setMinimumIdle(1);
        h.setConnectionTimeout(config.connectTimeoutMs());
        h.setValidationTimeout(Math.max(250, config.connectTimeoutMs() / 2));
        h.setInitializationFailTimeout(-1);
        h.setAutoCommit(true);
        h.addDataSourceProperty("connectTimeout", Long.toString(Math.max(1, config.connectTimeoutMs() / 1000)));
        h.addDataSourceProperty("ApplicationName", "tern-nostr");
        return new PostgresBackend(config, new HikariDataSource(h), deletionEnabled, new SecureRandom().nextLong());
    }

    /** A connection outside the pool (the migration's and the bus's own). */
    public static Connection connect(PostgresStoreConfig config) throws SQLException {
        return connect(config, "tern-nostr");
    }

    /** As {@link #connect(PostgresStoreConfig)}, named in {@code pg_stat_activity} as {@code applicationName}. */
    public static Connection connect(PostgresStoreConfig config, String applicationName) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", config.user());
        if (config.password() != null) {
            p.setProperty("password", config.password());
        }
        p.setProperty("connectTimeout", Long.toString(Math.max(1, config.connectTimeoutMs() / 1000)));
        p.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(config.jdbcUrl(), p);
    }

    public PostgresStoreConfig config() {
        return config;
    }

    /** This node's mark on the rows it stores (random per open). */
    public long origin() {
        return origin;
    }

    @Override
    public List<WriteOutcome> writeBatch(List<Event> events) {
        try (Connection c = pool.getConnection()) {
            return writer.writeBatch(c, events);
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
        try (Connection c = pool.getConnection()) {
            return writer.purgeExpired(c, nowSeconds);
        } catch (SQLException e) {
            throw new IllegalStateException("purge failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
