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

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** Lettuce's form of this address, with a command timeout. */
    RedisURI toRedisUri(Duration timeout) {
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
