package io.tern.server.metrics;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.netty.NettyTransports;
import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpExchange;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.server.relay.RelayServer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The HTTP endpoint of {@code --prometheus}: Tern's HTTP server ({@code io.tern.netty.http}, on
 * Netty's codecs) on an event loop of its own, so that a scrape, which walks every engine's
 * counters, never runs on a loop that serves traffic.
 * <ul>
 *   <li>{@code GET /metrics}: Prometheus exposition (text, OpenMetrics or protobuf, as the
 *       scraper asks; {@code name[]} filters; gzip), the {@code tern_*} metrics of
 *       {@link RelayMetrics} (or the product's) plus the JVM's.</li>
 *   <li>{@code GET /health} and {@code GET /ready}: 200 {@code ok} while serving, 503
 *       {@code draining} in drain mode, so that a load balancer takes the node out.</li>
 * </ul>
 * As in coturn, {@link #start(RelayServer, int)} binds every interface.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");
    private static final String NOT_FOUND = "not found; try /metrics or /health\n";

    private final EventLoopGroup loop;
    private final HttpServer http;
    private final RelayMetrics metrics;

    private MetricsEndpoint(EventLoopGroup loop, HttpServer http, RelayMetrics metrics) {
        this.loop = loop;
        this.http = http;
        this.metrics = metrics;
    }

    /** Serves {@code server}'s metrics on {@code port} of every interface (coturn's behaviour). */
    public static MetricsEndpoint start(RelayServer server, int port) throws IOException {
        return start(forServer(server), new InetSocketAddress(port));
    }

    /** The metrics of {@code server}: its engines, drain flag, and TCP/TLS connections. */
    public static RelayMetrics forServer(RelayServer server) {
        return new RelayMetrics(server::engines, server::draining)
                .openConnections(server::streamConnections)
                .connectionEvents(server.streamCounters())
                .kernelReceiveDrops(server::kernelReceiveDrops)
                .udpIo(server::udpIo)
                .fleet(server.fleet().orElse(null));
    }

    /** Registers {@code metrics} and the JVM's in a fresh registry and serves it on {@code bind}. */
    public static MetricsEndpoint start(RelayMetrics metrics, InetSocketAddress bind) throws IOException {
        Objects.requireNonNull(metrics, "metrics");
        return serve(metrics::register, metrics::draining, bind, metrics);
    }

    /**
     * Serves the collectors {@code register} adds (and the JVM's) on {@code bind}, the same way for
     * every product: the relay's metrics, the origin's.
     *
     * @param draining whether {@code /health} answers 503
     */
    public static MetricsEndpoint start(
            Consumer<PrometheusRegistry> register, BooleanSupplier draining, InetSocketAddress bind)
            throws IOException {
        return serve(register, draining, bind, null);
    }

    private static MetricsEndpoint serve(
            Consumer<PrometheusRegistry> register, BooleanSupplier draining, InetSocketAddress bind, RelayMetrics relay)
            throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        register.accept(registry);
        JvmMetrics.builder().register(registry);
        PrometheusScrapeHandler scrape = new PrometheusScrapeHandler(registry);

        HttpRoutes routes = HttpRoutes.builder()
                .get("/metrics", "metrics", exchange -> ScrapeExchange.answer(scrape, exchange))
                .get("/health", "health", exchange -> health(exchange, draining.getAsBoolean()))
                .get("/ready", "health", exchange -> health(exchange, draining.getAsBoolean()))
                .notFound(exchange -> exchange.reply(HttpResponseStatus.NOT_FOUND)
                        .cache(CacheControl.noStore())
                        .send(NOT_FOUND))
                .build();
        EventLoopGroup loop = NettyTransports.newGroup(1, "tern-metrics-http");
        HttpServer http;
        try {
            http = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                    .eventLoops(loop)
                    .listen(bind)
                    .start();
        } catch (Exception e) { // a bind failure arrives undeclared from Netty
            shutdown(loop);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while binding " + bind);
            }
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getMessage(), e);
        }
        InetSocketAddress bound = http.plainAddresses().get(0);
        LOG.log(
                System.Logger.Level.INFO,
                "metrics on http://" + bound.getHostString() + ":" + bound.getPort() + "/metrics, health on /health");
        return new MetricsEndpoint(loop, http, relay);
    }

    /** The relay's metrics; null for an endpoint started with other collectors. */
    public RelayMetrics metrics() {
        return metrics;
    }

    /** The bound address; its port is the real one when started on port 0. */
    public InetSocketAddress address() {
        return http.plainAddresses().get(0);
    }

    @Override
    public void close() {
        http.close();
        shutdown(loop);
    }

    private static void shutdown(EventLoopGroup loop) {
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static void health(HttpExchange exchange, boolean draining) {
        exchange.reply(draining ? HttpResponseStatus.SERVICE_UNAVAILABLE : HttpResponseStatus.OK)
                .cache(CacheControl.noStore())
                .send(draining ? "draining\n" : "ok\n");
    }
}
