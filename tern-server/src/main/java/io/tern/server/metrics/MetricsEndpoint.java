package io.tern.server.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.server.relay.RelayServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The HTTP endpoint of {@code --prometheus}: one small JDK HTTP server, one thread.
 * <ul>
 *   <li>{@code GET /metrics}: Prometheus exposition (text, OpenMetrics or protobuf, as the
 *       scraper asks), the {@code tern_*} metrics of {@link RelayMetrics} plus the JVM's.</li>
 *   <li>{@code GET /health} and {@code GET /ready}: 200 {@code ok} while serving, 503
 *       {@code draining} in drain mode, so that a load balancer takes the node out.</li>
 * </ul>
 * As in coturn, {@link #start(RelayServer, int)} binds every interface.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");
    private static final byte[] OK = "ok\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DRAINING = "draining\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOT_FOUND = "not found; try /metrics or /health\n".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer http;
    private final ExecutorService executor;
    private final RelayMetrics metrics;

    private MetricsEndpoint(HttpServer http, ExecutorService executor, RelayMetrics metrics) {
        this.http = http;
        this.executor = executor;
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
                .udpIo(server::udpIo);
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

        HttpServer http = HttpServer.create(bind, 16);
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "tern-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        http.setExecutor(executor);
        MetricsHandler scrape = new MetricsHandler(registry);
        http.createContext("/", exchange -> {
            try (exchange) {
                String path = exchange.getRequestURI().getPath();
                switch (path) {
                    case "/metrics" -> scrape.handle(exchange);
                    case "/health", "/ready" -> health(exchange, draining.getAsBoolean());
                    default -> respond(exchange, 404, NOT_FOUND);
                }
            }
        });
        http.start();
        LOG.log(
                System.Logger.Level.INFO,
                "metrics on http://" + http.getAddress().getHostString() + ":"
                        + http.getAddress().getPort() + "/metrics, health on /health");
        return new MetricsEndpoint(http, executor, relay);
    }

    /** The relay's metrics; null for an endpoint started with other collectors. */
    public RelayMetrics metrics() {
        return metrics;
    }

    /** The bound address; its port is the real one when started on port 0. */
    public InetSocketAddress address() {
        return http.getAddress();
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    private static void health(HttpExchange exchange, boolean draining) throws IOException {
        respond(exchange, draining ? 503 : 200, draining ? DRAINING : OK);
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        String method = exchange.getRequestMethod();
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            exchange.sendResponseHeaders(405, -1);
            return;
        }
        if (method.equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
