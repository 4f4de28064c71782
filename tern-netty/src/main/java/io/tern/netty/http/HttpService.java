package io.tern.netty.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.ssl.SslContext;
import io.tern.netty.stream.ConnectionLimiter;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The HTTP service independent of sockets: routes, limits, counters and the shared limit tables.
 * {@link #initializer} builds a connection's pipeline on any channel (a socket accepted by
 * {@link HttpServer}, or an {@code EmbeddedChannel} in tests and benchmarks).
 */
public final class HttpService {
    private final HttpRoutes routes;
    private final HttpLimits limits;
    private final HttpCounters counters;
    private final HttpDates dates;
    private final ConnectionLimiter connectionLimiter;
    private final ConnectionLimiter heldLimiter;

    /**
     * @param clock the wall clock for {@code Date} and conditional requests (timeouts run on the event
     *              loops' own timers)
     */
    public HttpService(HttpRoutes routes, HttpLimits limits, InstantSource clock) {
        this.routes = Objects.requireNonNull(routes, "routes");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.counters = new HttpCounters(routes.kinds());
        this.dates = new HttpDates(Objects.requireNonNull(clock, "clock"));
        this.connectionLimiter = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerIp());
        this.heldLimiter = new ConnectionLimiter(limits.maxHeldRequests(), limits.maxHeldRequestsPerIp());
    }

    public HttpService(HttpRoutes routes, HttpLimits limits) {
        this(routes, limits, InstantSource.system());
    }

    /**
     * The pipeline of one client connection: HTTP/1.1 and h2c (prior knowledge and
     * {@code Upgrade: h2c}) when {@code tls} is null, else TLS with ALPN choosing h2 or http/1.1.
     *
     * @param tls the context for each new connection (read per connection, so a reloaded
     *            certificate applies to new ones); its ALPN must offer h2 and http/1.1
     */
    public ChannelInitializer<Channel> initializer(Supplier<SslContext> tls) {
        return new HttpConnectionInitializer(this, tls);
    }

    public HttpCounters counters() {
        return counters;
    }

    public HttpLimits limits() {
        return limits;
    }

    HttpRoutes routes() {
        return routes;
    }

    HttpDates dates() {
        return dates;
    }

    ConnectionLimiter connectionLimiter() {
        return connectionLimiter;
    }

    ConnectionLimiter heldLimiter() {
        return heldLimiter;
    }
}
