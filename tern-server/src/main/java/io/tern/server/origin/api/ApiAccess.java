package io.tern.server.origin.api;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.tern.netty.http.HttpExchange;
import io.tern.server.option.ConfigException;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Who may use the JSON API: a client on loopback that did not come through a proxy, or anyone with
 * the bearer token ({@code --api-token} or {@code --api-token-file}). A wrong token is refused even
 * on loopback, so a script with a stale token finds out at once.
 *
 * <p>A request carrying {@code Forwarded}, {@code X-Forwarded-For} or {@code X-Real-IP} counts as
 * remote: a reverse proxy on the same host would otherwise open the API to the proxy's clients.
 */
public final class ApiAccess {
    /** RFC 6750's b64token, and long enough not to be guessed. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]{16,}=*");

    static final int MIN_TOKEN_LENGTH = 16;

    private static final List<String> PROXY_HEADERS = List.of("forwarded", "x-forwarded-for", "x-real-ip");
    private static final String BEARER = "Bearer ";

    /** Null: loopback only. */
    private final byte[] token;

    /** A refusal: the status and what the client is told. */
    record Refusal(HttpResponseStatus status, String message) {}

    ApiAccess(String token) {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    /** From {@code --api-token} or {@code --api-token-file}; an invalid value fails here, at start, naming its option. */
    public static ApiAccess from(OriginConfig config) {
        String given = config.get(OriginOptions.API_TOKEN);
        Path file = config.get(OriginOptions.API_TOKEN_FILE);
        if (given != null && file != null) {
            throw new ConfigException("Options 'api-token' "
                    + config.source(OriginOptions.API_TOKEN).where()
                    + " and 'api-token-file' "
                    + config.source(OriginOptions.API_TOKEN_FILE).where()
                    + " exclude each other");
        }
        if (given != null) {
            String reason = invalid(given);
            if (reason != null) {
                throw ConfigException.invalidValue(
                        "api-token", hidden(given), reason, config.source(OriginOptions.API_TOKEN));
            }
            return new ApiAccess(given);
        }
        if (file != null) {
            String line;
            try {
                line = Files.readString(file, StandardCharsets.UTF_8)
                        .lines()
                        .findFirst()
                        .orElse("")
                        .trim();
            } catch (IOException e) {
                throw ConfigException.invalidValue(
                        "api-token-file",
                        file.toString(),
                        "cannot read it: " + e.getMessage(),
                        config.source(OriginOptions.API_TOKEN_FILE));
            }
            String reason = invalid(line);
            if (reason != null) {
                throw ConfigException.invalidValue(
                        "api-token-file",
                        file.toString(),
                        "its first line " + reason,
                        config.source(OriginOptions.API_TOKEN_FILE));
            }
            return new ApiAccess(line);
        }
        return new ApiAccess(null);
    }

    /** Why {@code token} cannot be a bearer token, or null when it can. */
    static String invalid(String token) {
        if (token.length() < MIN_TOKEN_LENGTH) {
            return "is " + token.length() + " characters long; a token needs at least " + MIN_TOKEN_LENGTH;
        }
        if (!TOKEN.matcher(token).matches()) {
            return "has characters a bearer token may not have; use A-Z a-z 0-9 - . _ ~ + /";
        }
        return null;
    }

    /** A secret in an error message: its length only. */
    private static String hidden(String token) {
        return "<hidden, " + token.length() + " characters>";
    }

    public boolean tokenRequired() {
        return token != null;
    }

    /** Null when the request may go on. */
    Refusal check(HttpExchange exchange) {
        String authorization = exchange.header(HttpHeaderNames.AUTHORIZATION);
        if (authorization != null) {
            if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                return new Refusal(
                        HttpResponseStatus.UNAUTHORIZED, "the API takes 'Authorization: Bearer TOKEN', nothing else");
            }
            byte[] offered = authorization.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
            if (token == null) {
                return new Refusal(
                        HttpResponseStatus.UNAUTHORIZED,
                        "this origin has no API token (--api-token); send none, from loopback");
            }
            return MessageDigest.isEqual(offered, token)
                    ? null
                    : new Refusal(HttpResponseStatus.UNAUTHORIZED, "wrong bearer token");
        }
        if (direct(exchange) && exchange.remoteAddress().getAddress().isLoopbackAddress()) {
            return null;
        }
        return token == null
                ? new Refusal(
                        HttpResponseStatus.FORBIDDEN,
                        "the API answers loopback clients only; start the origin with --api-token to use it"
                                + " from elsewhere")
                : new Refusal(HttpResponseStatus.UNAUTHORIZED, "the API needs 'Authorization: Bearer TOKEN' here");
    }

    private static boolean direct(HttpExchange exchange) {
        for (String header : PROXY_HEADERS) {
            if (exchange.headers().contains(header)) {
                return false;
            }
        }
        InetSocketAddress remote = exchange.remoteAddress();
        return remote != null && remote.getAddress() != null;
    }
}
