package io.tern.server.origin.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.netty.hls.DirectBudget;
import io.tern.netty.hls.Served;
import io.tern.server.origin.record.RecordingWriter;
import io.tern.server.origin.registry.StreamRegistry;
import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * Prometheus collectors for the origin ({@code tern_origin_*}), read at scrape time from the
 * registry, the {@link OriginCounters}, the recording writer and the RTMP listener. No label has a
 * value per stream, viewer or address: kinds, causes and close reasons are fixed sets.
 * {@code tern-server/METRICS.md} lists them.
 */
public final class OriginMetrics {
    private final StreamRegistry registry;
    private final OriginCounters counters;
    private final RecordingWriter writer;
    private final DirectBudget budget;
    private final IntSupplier rtmpConnections;

    /** @param writer null when the origin does not record */
    public OriginMetrics(
            StreamRegistry registry, RecordingWriter writer, DirectBudget budget, IntSupplier rtmpConnections) {
        this.registry = registry;
        this.counters = registry.counters();
        this.writer = writer;
        this.budget = budget;
        this.rtmpConnections = rtmpConnections;
    }

    public void register(PrometheusRegistry r) {
        gauge(
                r,
                "tern_origin_streams",
                "Streams served now: live, and ended ones still lingering with ENDLIST",
                () -> registry.streams().size());
        gauge(r, "tern_origin_publishers", "Streams being published now (one publisher each)", registry::liveCount);
        gauge(
                r,
                "tern_origin_viewers",
                "Viewers now: client addresses that asked for a media playlist in the last 10 s,"
                        + " summed over streams",
                registry::viewers);
        GaugeWithCallback.builder()
                .name("tern_origin_ingest_connections")
                .help("Ingest connections open now, publishing or not")
                .labelNames("protocol")
                .callback(cb -> cb.call(rtmpConnections.getAsInt(), "rtmp"))
                .register(r);
        gauge(
                r,
                "tern_origin_held_requests",
                "Requests the packagers hold now: blocking playlist reloads and" + " preload-hinted parts",
                counters::heldNow);
        counter(r, "tern_origin_publishes", "Publishes accepted", counters::publishesAccepted);
        counter(
                r,
                "tern_origin_ingest_bytes",
                "Media bytes received from publishers (rate() is the ingest bitrate)",
                counters::ingestBytes);
        counter(r, "tern_origin_access_units", "Frames received from publishers", counters::accessUnits);
        counter(r, "tern_origin_parts", "Parts produced, both renditions", counters::parts);
        counter(r, "tern_origin_segments", "Segments produced, both renditions", counters::segments);
        counter(r, "tern_origin_discontinuities", "EXT-X-DISCONTINUITY written", counters::discontinuities);
        CounterWithCallback.builder()
                .name("tern_origin_served_responses")
                .help("Playlists and media objects answered, by kind")
                .labelNames("kind")
                .callback(cb -> {
                    for (Served kind : Served.values()) {
                        cb.call(counters.servedResponses(kind), kind.label());
                    }
                })
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_served_bytes")
                .help("Body bytes of playlists and media objects answered, by kind")
                .labelNames("kind")
                .callback(cb -> {
                    for (Served kind : Served.values()) {
                        cb.call(counters.servedBytes(kind), kind.label());
                    }
                })
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_errors")
                .help("Problems, by cause")
                .labelNames("cause")
                .callback(cb -> counters.forEachError(
                        (cause, count) -> cb.call(count, cause.name().toLowerCase(Locale.ROOT))))
                .register(r);
        CounterWithCallback.builder()
                .name("tern_origin_ingest_closed")
                .help("Ingest connections closed, by protocol and reason")
                .labelNames("protocol", "reason")
                .callback(cb ->
                        counters.forEachIngestClose((protocol, reason, count) -> cb.call(count, protocol, reason)))
                .register(r);
        gauge(r, "tern_origin_shared_body_bytes", "Direct memory held by the streams' media chunks", budget::usedBytes);
        if (writer != null) {
            counter(r, "tern_origin_recording_bytes", "Bytes written to recordings", writer::bytesWritten);
            counter(r, "tern_origin_recording_files", "Recording files started", writer::filesOpened);
            counter(
                    r,
                    "tern_origin_recording_deleted_files",
                    "Recording files deleted by retention",
                    writer::filesDeleted);
            counter(
                    r,
                    "tern_origin_recording_io_errors",
                    "Recording write, close or retention failures",
                    writer::ioErrors);
            gauge(r, "tern_origin_recording_queued_bytes", "Recording bytes waiting for the disk", writer::queuedBytes);
        }
    }

    private static void gauge(PrometheusRegistry r, String name, String help, java.util.function.LongSupplier value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.getAsLong()))
                .register(r);
    }

    private static void counter(PrometheusRegistry r, String name, String help, java.util.function.LongSupplier value) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .callback(cb -> cb.call(value.getAsLong()))
                .register(r);
    }
}
