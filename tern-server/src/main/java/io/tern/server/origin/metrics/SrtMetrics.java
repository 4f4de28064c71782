package io.tern.server.origin.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.server.origin.metrics.SrtCounters.Kind;
import io.tern.srt.SrtStats;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Prometheus collectors for the SRT ingest ({@code tern_origin_srt_*}). Totals carry no stream
 * label; the per-stream series ({@code stream} label) exist only for streams published over SRT
 * now, so they are bounded by {@code --max-streams}. Live sessions are read once per scrape, on
 * the SRT loop.
 */
public final class SrtMetrics {
    /** How long a scrape waits for the SRT loop; past it the live series are left out of that scrape. */
    private static final long SAMPLE_TIMEOUT_MS = 2000;

    /** One live SRT publisher: its stream's name and its session's counters. */
    public record Sample(String stream, SrtStats stats) {}

    private final SrtCounters counters;
    private final Supplier<CompletableFuture<List<Sample>>> sampler;

    /** @param sampler every live publisher's counters, taken on the SRT loop (the ingest's {@code sample}) */
    public SrtMetrics(SrtCounters counters, Supplier<CompletableFuture<List<Sample>>> sampler) {
        this.counters = counters;
        this.sampler = sampler;
    }

    private List<Sample> sample() {
        try {
            return sampler.get().get(SAMPLE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return List.of();
        }
    }

    public void register(PrometheusRegistry r) {
        GaugeWithCallback.builder()
                .name("tern_origin_srt_sessions")
                .help("SRT publishers connected now")
                .callback(cb -> cb.call(sample().size()))
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_srt_connections")
                .help("SRT handshakes completed")
                .callback(cb -> cb.call(counters.sessionsConnected()))
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_srt_rejections")
                .help("SRT callers refused at the handshake, by libsrt reason")
                .labelNames("reason")
                .callback(cb -> counters.forEachRejection((reason, n) -> cb.call(n, reason)))
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_srt_packets")
                .help("SRT data packets over every session, by kind: received, lost (then recovered or"
                        + " dropped), retransmitted (received again), dropped_too_late, undecryptable")
                .labelNames("kind")
                .callback(cb -> {
                    List<Sample> live = sample();
                    for (Kind kind : Kind.values()) {
                        long n = counters.closedPackets(kind);
                        for (Sample s : live) {
                            n += kind.of(s.stats());
                        }
                        cb.call(n, label(kind));
                    }
                })
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_srt_stream_packets")
                .help("SRT data packets of each stream's current publisher, by kind (as tern_origin_srt_packets)")
                .labelNames("stream", "kind")
                .callback(cb -> {
                    for (Sample s : sample()) {
                        for (Kind kind : Kind.values()) {
                            cb.call(kind.of(s.stats()), s.stream(), label(kind));
                        }
                    }
                })
                .register(r);
        GaugeWithCallback.builder()
                .name("tern_origin_srt_stream_rtt_seconds")
                .help("Smoothed round-trip time to each stream's SRT publisher")
                .labelNames("stream")
                .callback(cb -> {
                    for (Sample s : sample()) {
                        cb.call(s.stats().rttUs() / 1e6, s.stream());
                    }
                })
                .register(r);
        GaugeWithCallback.builder()
                .name("tern_origin_srt_stream_receive_bits_per_second")
                .help("Payload bitrate received from each stream's SRT publisher over the last second")
                .labelNames("stream")
                .callback(cb -> {
                    for (Sample s : sample()) {
                        cb.call(s.stats().receiveRateBps(), s.stream());
                    }
                })
                .register(r);
        GaugeWithCallback.builder()
                .name("tern_origin_srt_stream_latency_seconds")
                .help("Negotiated SRT receive latency of each stream's publisher")
                .labelNames("stream")
                .callback(cb -> {
                    for (Sample s : sample()) {
                        cb.call(s.stats().latencyMs() / 1e3, s.stream());
                    }
                })
                .register(r);
    }

    private static String label(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
