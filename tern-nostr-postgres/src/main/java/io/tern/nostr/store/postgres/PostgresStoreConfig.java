package io.tern.nostr.store.postgres;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * How the PostgreSQL store runs.
 *
 * @param host the server's host name or address
 * @param port its TCP port
 * @param database the database, which every node of a fleet shares
 * @param user the role the store logs in as
 * @param password its password, or null for none (trust or peer authentication)
 * @param readConnections queries running at once, each on its own pooled connection
 * @param maxWriteBatch events committed together at most
 * @param sliceNs a query's turn on the reader thread before the next one's (as the SQLite store's)
 * @param rowsPerStep rows read between clock checks within a slice
 * @param connectTimeoutMs how long a write or a query waits for a connection (and a connection for
 *     the server) before it fails with an error, so that a database that is down is answered with
 *     {@code error:} rather than held
 */
public record PostgresStoreConfig(
        String host,
        int port,
        String database,
        String user,
        String password,
        int readConnections,
        int maxWriteBatch,
        long sliceNs,
        int rowsPerStep,
        long connectTimeoutMs) {
    public static final int DEFAULT_PORT = 5432;

    public PostgresStoreConfig {
        if (host == null
                || host.isEmpty()
                || database == null
                || database.isEmpty()
                || user == null
                || user.isEmpty()) {
            throw new IllegalArgumentException("a host, a user and a database are required");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, got " + port);
        }
        if (readConnections < 1 || readConnections > 64) {
            throw new IllegalArgumentException("read connections must be 1..64, got " + readConnections);
        }
        if (maxWriteBatch < 1) {
            throw new IllegalArgumentException("write batch must be >= 1, got " + maxWriteBatch);
        }
        if (sliceNs < 1 || rowsPerStep < 1) {
            throw new IllegalArgumentException("query slice must be positive, got " + sliceNs + " ns / " + rowsPerStep);
        }
        if (connectTimeoutMs < 250) {
            throw new IllegalArgumentException("connect timeout must be >= 250 ms, got " + connectTimeoutMs);
        }
    }

    /** Whether {@code db} names a PostgreSQL database rather than a SQLite file. */
    public static boolean isUrl(String db) {
        return db.startsWith("postgresql://") || db.startsWith("postgres://");
    }

    /**
     * {@code postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE} (libpq's URI form; {@code postgres://}
     * too) with the defaults: 2 read connections, batches of up to 512, 5 ms slices checked every 50
     * rows, 2 s to connect.
     *
     * @param passwordFromFile the password when the URL has none (null for none); a URL that has one
     *     and a file too is refused, as ambiguous
     * @throws IllegalArgumentException saying what is wrong with the URL (never echoing a password)
     */
    public static PostgresStoreConfig fromUrl(String url, String passwordFromFile) {
        if (!isUrl(url)) {
            throw new IllegalArgumentException("expected postgresql://USER@HOST:PORT/DATABASE");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "not a URL (" + e.getReason() + "); expected postgresql://USER@HOST:PORT/DATABASE");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("no host; expected postgresql://USER@HOST:PORT/DATABASE");
        }
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null || userInfo.isEmpty() || userInfo.startsWith(":")) {
            throw new IllegalArgumentException("no user; expected postgresql://USER@HOST:PORT/DATABASE");
        }
        String path = uri.getRawPath();
        if (path == null || path.length() < 2 || path.indexOf('/', 1) >= 0) {
            throw new IllegalArgumentException("no database; expected postgresql://USER@HOST:PORT/DATABASE");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    "parameters (?...) are not supported; expected postgresql://USER@HOST:PORT/DATABASE");
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
        if (password != null && passwordFromFile != null) {
            throw new IllegalArgumentException("the URL has a password and a password file is given too; use one");
        }
        return new PostgresStoreConfig(
                uri.getHost(),
                uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                decode(path.substring(1)),
                user,
                password != null ? password : passwordFromFile,
                2,
                512,
                5_000_000L,
                50,
                2_000);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The pgjdbc URL: {@code jdbc:postgresql://HOST:PORT/DATABASE}. */
    public String jdbcUrl() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return "jdbc:postgresql://" + h + ":" + port + "/" + database;
    }

    /** {@code postgresql://USER@HOST:PORT/DATABASE}, without the password, for messages and logs. */
    public String displayUrl() {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return "postgresql://" + user + "@" + h + ":" + port + "/" + database;
    }

    public PostgresStoreConfig withPool(int readConnections, int maxWriteBatch) {
        return new PostgresStoreConfig(
                host,
                port,
                database,
                user,
                password,
                readConnections,
                maxWriteBatch,
                sliceNs,
                rowsPerStep,
                connectTimeoutMs);
    }

    public PostgresStoreConfig withSlices(long sliceNs, int rowsPerStep) {
        return new PostgresStoreConfig(
                host,
                port,
                database,
                user,
                password,
                readConnections,
                maxWriteBatch,
                sliceNs,
                rowsPerStep,
                connectTimeoutMs);
    }

    @Override
    public String toString() {
        return displayUrl();
    }
}
