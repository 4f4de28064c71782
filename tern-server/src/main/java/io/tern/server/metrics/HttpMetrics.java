package io.tern.server.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
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
        CounterWithCallback.builder()
                .name("tern_http_responses")
                .help("HTTP responses sent, by request kind (playlist, part, ...) and status")
                .labelNames("kind", "status")
                .callback(cb -> counters.forEachRequestCount((kind, status, count) -> cb.call(count, kind, status)))
                .register(registry);
        GaugeWithCallback.builder()
                .name("tern_http_held_requests")
                .help("HTTP requests held now (blocking playlist reloads, preload-hinted parts)")
                .callback(cb -> cb.call(counters.heldNow()))
                .register(registry);
        GaugeWithCallback.builder()
                .name("tern_http_connections_open")
                .help("HTTP client connections open now")
                .callback(cb -> cb.call(counters.connectionsOpen()))
                .register(registry);
        CounterWithCallback.builder()
                .name("tern_http_body_bytes")
                .help("HTTP response body bytes handed to the transport")
                .callback(cb -> cb.call(counters.bodyBytes()))
                .register(registry);
        CounterWithCallback.builder()
                .name("tern_http_events")
                .help("HTTP connection and request events: protocols, held requests, limits and timeouts")
                .labelNames("event")
                .callback(cb -> {
                    for (HttpCounters.Event event : EVENTS) {
                        cb.call(counters.count(event), event.name().toLowerCase(Locale.ROOT));
                    }
                })
                .register(registry);
    }
}
