package io.tern.cluster;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A {@code --cluster-redis} value: {@code redis://[[USER]:PASSWORD@]HOST:PORT[/DB]}, or
 * {@code rediss://} for TLS. Parsed here rather than by Lettuce so that a bad value gets an answer
 * that names what is wrong with it; the password never appears in {@link #toString()}.
 *
 * @param tls      {@code rediss://}
 * @param user     the ACL user, or null (Redis's default user)
 * @param password the password, or null
 */
public record RedisAddress(boolean tls, String host, int port, int database, String user, String password) {
    /** Redis's own default of 16 databases; a server may have more, but never 2^31. */
    private static final int MAX_DATABASE = 1 << 16;

    /**
     * Parses a URL; {@link IllegalArgumentException} says what is wrong with it, without echoing a
     * password.
     */
    public static RedisAddress parse(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URL (" + e.getReason() + ")");
        }
        String scheme = uri.getScheme();
        if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
            throw new IllegalArgumentException("must start redis:// or rediss://");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("has no host (redis://HOST:PORT)");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() == -1 ? RedisURI.DEFAULT_REDIS_PORT : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range");
        }
        int database = 0;
        String path = uri.getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            String db = path.substring(1);
            try {
                database = Integer.parseInt(db);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("database '" + db + "' is not a number (redis://HOST:PORT/DB)");
            }
            if (database < 0 || database >= MAX_DATABASE) {
                throw new IllegalArgumentException("database " + database + " is out of range");
            }
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("takes no query or fragment");
        }
        String user = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            String rawUser = colon < 0 ? null : userInfo.substring(0, colon);
            String rawPassword = colon < 0 ? userInfo : userInfo.substring(colon + 1);
            user = rawUser == null || rawUser.isEmpty() ? null : decode(rawUser);
            password = rawPassword.isEmpty() ? null : decode(rawPassword);
        }
        return new RedisAddress("rediss".equals(scheme), host, port, database, user, password);
    }

    /**
     * A {@code redis-userdb} or {@code redis-statsdb} value: coturn's connection string
     * ({@code "ip=HOST dbname=DB password=PASSWORD port=PORT connect_timeout=SECONDS"}, every key
     * optional, {@code host} for {@code ip} and {@code database} for {@code dbname} too) or a
     * {@code redis://} URL as {@link #parse} takes it.
     */
    public static RedisAddress parseCoturn(String value) {
        String text = value.strip();
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            text = text.substring(1, text.length() - 1).strip();
        }
        if (text.startsWith("redis://") || text.startsWith("rediss://")) {
            return parse(text);
        }
        String host = "127.0.0.1";
        int port = RedisURI.DEFAULT_REDIS_PORT;
        int database = 0;
        String user = null;
        String password = null;
        for (String pair : text.split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + (pair.contains("password") ? "password..." : pair)
                        + "' is not key=value (coturn's \"ip=HOST port=PORT dbname=DB password=PASSWORD\","
                        + " or redis://HOST:PORT/DB)");
            }
            String key = pair.substring(0, eq).toLowerCase(java.util.Locale.ROOT);
            String v = pair.substring(eq + 1);
            switch (key) {
                case "ip", "host", "addr" -> host = v;
                case "port" -> port = number(key, v, 1, 65535);
                case "dbname", "database", "db" -> database = number(key, v, 0, MAX_DATABASE - 1);
                case "user" -> user = v.isEmpty() ? null : v;
                case "password", "pwd" -> password = v.isEmpty() ? null : v;
                case "connect_timeout", "timeout" -> number(key, v, 0, Integer.MAX_VALUE);
                default ->
                    throw new IllegalArgumentException(
                            "has an unknown key '" + key + "' (ip, port, dbname, password, connect_timeout)");
            }
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("has an empty ip");
        }
        return new RedisAddress(false, host, port, database, user, password);
    }

    private static int number(String key, String value, int min, int max) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " '" + value + "' is not a number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " " + n + " is out of range " + min + "-" + max);
        }
        return n;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Lettuce's form of this address, with a command timeout. */
    public RedisURI toRedisUri(Duration timeout) {
        RedisURI.Builder b = RedisURI.builder()
                .withHost(host)
                .withPort(port)
                .withDatabase(database)
                .withSsl(tls)
                .withTimeout(timeout);
        if (password != null) {
            if (user != null) {
                b.withAuthentication(user, password);
            } else {
                b.withPassword(password.toCharArray());
            }
        }
        return b.build();
    }

    /** The URL with the password masked, for logs and errors. */
    @Override
    public String toString() {
        String credentials = password == null ? "" : (user == null ? "" : user) + ":***@";
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return (tls ? "rediss://" : "redis://") + credentials + h + ":" + port + (database == 0 ? "" : "/" + database);
    }
}
