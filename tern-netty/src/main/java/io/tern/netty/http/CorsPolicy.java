package io.tern.netty.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.List;
import java.util.Set;

/**
 * Cross-origin access for players on other sites. With no list of origins every origin is allowed
 * with {@code Access-Control-Allow-Origin: *}, which a CDN can cache once for all; with a list, a
 * listed {@code Origin} is echoed with {@code Vary: Origin}. Preflight {@code OPTIONS} requests
 * are answered by the server from this policy (204).
 */
public final class CorsPolicy {
    private static final AsciiString ANY = AsciiString.cached("*");

    private final Set<String> origins;
    private final AsciiString allowHeaders;
    private final AsciiString exposeHeaders;
    private final AsciiString maxAgeSeconds;

    /**
     * @param origins       allowed origins ({@code https://example.com}); empty allows every origin
     * @param allowHeaders  request headers a preflight may ask for
     * @param exposeHeaders response headers scripts may read
     * @param maxAgeSeconds how long a browser may cache a preflight answer
     */
    public CorsPolicy(Set<String> origins, List<String> allowHeaders, List<String> exposeHeaders, long maxAgeSeconds) {
        if (maxAgeSeconds < 0) {
            throw new IllegalArgumentException("maxAgeSeconds must not be negative: " + maxAgeSeconds);
        }
        this.origins = Set.copyOf(origins);
        this.allowHeaders = allowHeaders.isEmpty() ? null : AsciiString.cached(String.join(", ", allowHeaders));
        this.exposeHeaders = exposeHeaders.isEmpty() ? null : AsciiString.cached(String.join(", ", exposeHeaders));
        this.maxAgeSeconds = AsciiString.cached(Long.toString(maxAgeSeconds));
    }

    /** Every origin; the headers hls.js and API clients send and read. */
    public static CorsPolicy anyOrigin() {
        return new CorsPolicy(
                Set.of(),
                List.of("Range", "Content-Type", "Authorization", "If-None-Match", "If-Modified-Since"),
                List.of("Content-Length", "Content-Range", "ETag", "Last-Modified", "Age", "Date"),
                86_400);
    }

    /** Adds the headers of an actual (not preflight) response to a request from {@code origin}. */
    void applyTo(HttpHeaders response, String origin) {
        if (allowOrigin(response, origin) && exposeHeaders != null) {
            response.set(HttpHeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, exposeHeaders);
        }
    }

    /** Adds the headers of a preflight answer; {@code allowMethods} are the route's. */
    void applyPreflight(HttpHeaders response, String origin, CharSequence allowMethods) {
        if (!allowOrigin(response, origin)) {
            return;
        }
        response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_METHODS, allowMethods);
        if (allowHeaders != null) {
            response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, allowHeaders);
        }
        response.set(HttpHeaderNames.ACCESS_CONTROL_MAX_AGE, maxAgeSeconds);
    }

    private boolean allowOrigin(HttpHeaders response, String origin) {
        if (origins.isEmpty()) {
            response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, ANY);
            return true;
        }
        response.add(HttpHeaderNames.VARY, HttpHeaderNames.ORIGIN);
        if (origin == null || !origins.contains(origin)) {
            return false;
        }
        response.set(HttpHeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        return true;
    }
}
