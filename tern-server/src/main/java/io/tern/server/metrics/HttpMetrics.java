package io.tern.server.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.netty.http.HttpCounters;
import java.util.Locale;
import java.util.Objects;

/**
 * Prometheus collectors over an HTTP server's {@link HttpCounters} (the origin's, later the API's),
 * read at scrape time. Labels are bounded: the routes' kinds, a fixed list of statuses, and the
 * counters' event names.
 */
public final class HttpMetrics {
    private static final HttpCounters.Event[] EVENTS = HttpCounters.Event.values();

    private final HttpCounters counters;

    public HttpMetrics(HttpCounters counters) {
        this.counters = Objects.requireNonNull(counters, "counters");
    }

    /** Registers every {@code tern_http_*} collector with {@code registry}. */
    public void register(PrometheusRegistry registry) {
        new MetricTable(registry)
                .counter(
                        "tern_http_responses",
                        "HTTP responses sent, by request kind (playlist, part, ...) and status",
                        MetricTable.labels("kind", "status"),
                        sink -> counters.forEachRequestCount((kind, status, count) -> sink.sample(count, kind, status)))
                .gauge(
                        "tern_http_held_requests",
                        "HTTP requests held now (blocking playlist reloads, preload-hinted parts)",
                        counters::heldNow)
                .gauge("tern_http_connections_open", "HTTP client connections open now", counters::connectionsOpen)
                .counter(
                        "tern_http_body_bytes", "HTTP response body bytes handed to the transport", counters::bodyBytes)
                .counter(
                        "tern_http_events",
                        "HTTP connection and request events: protocols, held requests, limits and timeouts",
                        MetricTable.labels("event"),
                        sink -> {
                            for (HttpCounters.Event event : EVENTS) {
                                sink.sample(counters.count(event), event.name().toLowerCase(Locale.ROOT));
                            }
                        });
    }
}
