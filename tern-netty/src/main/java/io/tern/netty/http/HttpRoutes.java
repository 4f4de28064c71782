package io.tern.netty.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.util.AsciiString;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The server's routes, tried in the order they were added. A route is a set of methods, a
 * {@link PathPattern path pattern} and a handler, plus a kind that labels its requests in the
 * counters ({@code playlist}, {@code part}, {@code api}); a handler may relabel its request with
 * {@link HttpExchange#kind(String)} among the declared kinds.
 *
 * <p>The server itself answers: {@code HEAD} on every {@code GET} route (the body is dropped),
 * {@code OPTIONS} (preflight from the {@link CorsPolicy}, or 204 with {@code Allow}), 405 with
 * {@code Allow} for a path that matches under other methods, 426 for an upgrade-only path asked
 * without {@code Upgrade}, and 404 when nothing matches (unless a {@link Builder#notFound} handler
 * is set).
 */
public final class HttpRoutes {
    /** The kind of requests no route claimed (404s, bad requests). */
    public static final String OTHER = "other";

    private final List<Route> routes;
    private final List<UpgradeRoute> upgrades;
    private final List<String> kinds;
    private final CorsPolicy cors;
    private final HttpHandler notFound;

    private HttpRoutes(Builder builder) {
        this.routes = List.copyOf(builder.routes);
        this.upgrades = List.copyOf(builder.upgrades);
        this.kinds = List.copyOf(builder.kinds);
        this.cors = builder.cors;
        this.notFound = builder.notFound;
    }

    public static Builder builder() {
        return new Builder();
    }

    List<String> kinds() {
        return kinds;
    }

    CorsPolicy cors() {
        return cors;
    }

    HttpHandler notFound() {
        return notFound;
    }

    List<Route> routes() {
        return routes;
    }

    List<UpgradeRoute> upgrades() {
        return upgrades;
    }

    /** A plain route. */
    record Route(Set<HttpMethod> methods, AsciiString allow, PathPattern pattern, String kind, HttpHandler handler) {
        boolean allows(HttpMethod method) {
            return methods.contains(method) || (method.equals(HttpMethod.HEAD) && methods.contains(HttpMethod.GET));
        }
    }

    /** A path where a connection may switch to {@code protocol} ({@code websocket}). */
    record UpgradeRoute(PathPattern pattern, String protocol, String kind, UpgradeHandler handler) {}

    public static final class Builder {
        private final List<Route> routes = new ArrayList<>();
        private final List<UpgradeRoute> upgrades = new ArrayList<>();
        private final Set<String> kinds = new LinkedHashSet<>(List.of(OTHER));
        private CorsPolicy cors;
        private HttpHandler notFound;

        private Builder() {}

        /** GET (and so HEAD) on {@code pattern}. */
        public Builder get(String pattern, String kind, HttpHandler handler) {
            return route(Set.of(HttpMethod.GET), pattern, kind, handler);
        }

        public Builder route(Set<HttpMethod> methods, String pattern, String kind, HttpHandler handler) {
            if (methods.isEmpty()) {
                throw new IllegalArgumentException("a route needs at least one method: " + pattern);
            }
            Set<HttpMethod> allowed = new LinkedHashSet<>(methods);
            if (allowed.contains(HttpMethod.GET)) {
                allowed.add(HttpMethod.HEAD);
            }
            allowed.add(HttpMethod.OPTIONS);
            StringBuilder allow = new StringBuilder();
            for (HttpMethod method : allowed) {
                allow.append(allow.isEmpty() ? "" : ", ").append(method.name());
            }
            routes.add(new Route(
                    Set.copyOf(methods),
                    AsciiString.cached(allow.toString()),
                    new PathPattern(pattern),
                    declare(kind),
                    Objects.requireNonNull(handler, "handler")));
            return this;
        }

        /** Lets connections asking for {@code protocol} on {@code pattern} be taken over by {@code handler}. */
        public Builder upgrade(String pattern, String protocol, String kind, UpgradeHandler handler) {
            upgrades.add(new UpgradeRoute(
                    new PathPattern(pattern),
                    Objects.requireNonNull(protocol, "protocol"),
                    declare(kind),
                    Objects.requireNonNull(handler, "handler")));
            return this;
        }

        /** Declares kinds a handler may switch its request to with {@link HttpExchange#kind(String)}. */
        public Builder kinds(String... extra) {
            for (String kind : extra) {
                declare(kind);
            }
            return this;
        }

        /** Adds CORS headers to every answer and answers preflight requests; null (the default) for none. */
        public Builder cors(CorsPolicy policy) {
            this.cors = policy;
            return this;
        }

        /** Answers requests no route matches, instead of the plain 404. */
        public Builder notFound(HttpHandler handler) {
            this.notFound = handler;
            return this;
        }

        public HttpRoutes build() {
            return new HttpRoutes(this);
        }

        private String declare(String kind) {
            if (kind == null || !kind.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException("a request kind is a lower-case label: " + kind);
            }
            kinds.add(kind);
            return kind;
        }
    }
}
