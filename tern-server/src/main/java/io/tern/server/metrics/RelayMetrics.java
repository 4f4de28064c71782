package io.tern.server.metrics;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.tern.cluster.RedisFleet;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamEvent;
import io.tern.stun.message.StunMethod;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Prometheus collectors over the engines' {@link TurnCounters}. Every value is read when
 * Prometheus scrapes, summed over the engines (one per relay thread); the relay path does no
 * work for metrics beyond the counters it keeps anyway.
 *
 * <p>Labels have bounded values only: transport, direction, method, error code and drop
 * reason. There is no per-user or per-address label.
 */
public final class RelayMetrics {
    private static final TransportProtocol[] TRANSPORTS = TransportProtocol.values();
    private static final String[] TRANSPORT_LABELS = labels(TRANSPORTS);
    private static final int[] DIRECTIONS = {
        TurnCounters.DIRECTION_CLIENT_TO_PEER, TurnCounters.DIRECTION_PEER_TO_CLIENT
    };
    private static final String[] DIRECTION_LABELS = {"client_to_peer", "peer_to_client"};
    private static final int[] METHODS = TurnCounters.methods();
    private static final String[] METHOD_LABELS = methodLabels(METHODS);
    private static final int[] ERROR_CODES = TurnCounters.errorCodes();
    private static final String[] ERROR_CODE_LABELS = codeLabels(ERROR_CODES);
    private static final DropReason[] DROP_REASONS = DropReason.values();
    private static final String[] DROP_REASON_LABELS = labels(DROP_REASONS);
    private static final StreamEvent[] STREAM_EVENTS = StreamEvent.values();
    private static final String[] STREAM_EVENT_LABELS = labels(STREAM_EVENTS);

    private final Supplier<? extends List<TurnEngine>> engines;
    private final BooleanSupplier draining;
    private final AtomicReference<LongSupplier> openConnections = new AtomicReference<>(() -> 0);
    private final AtomicReference<StreamCounters> streamCounters = new AtomicReference<>();
    private final AtomicReference<LongSupplier> kernelReceiveDrops = new AtomicReference<>(() -> 0);
    private final AtomicReference<Supplier<String>> udpIo = new AtomicReference<>(() -> "none");
    private final AtomicReference<RedisFleet> fleet = new AtomicReference<>();

    /**
     * @param engines  read at every scrape, so engines added later (e.g. TCP/TLS listeners) count
     * @param draining whether the relay is in drain mode
     */
    public RelayMetrics(Supplier<? extends List<TurnEngine>> engines, BooleanSupplier draining) {
        this.engines = Objects.requireNonNull(engines, "engines");
        this.draining = Objects.requireNonNull(draining, "draining");
    }

    /**
     * The hook for connection-oriented listeners: {@code tern_connections_open} reads
     * {@code supplier} (TCP and TLS client connections open now) at scrape time. Until one is
     * plugged in, the gauge reads 0, as it always would for UDP alone.
     */
    public RelayMetrics openConnections(LongSupplier supplier) {
        openConnections.set(Objects.requireNonNull(supplier, "supplier"));
        return this;
    }

    /** The TCP/TLS listeners' connection events, for {@code tern_connection_events_total}; null for none. */
    public RelayMetrics connectionEvents(StreamCounters counters) {
        streamCounters.set(counters);
        return this;
    }

    /** Datagrams the kernel dropped at full UDP receive buffers, for {@code reason="socket_receive_buffer_full"}. */
    public RelayMetrics kernelReceiveDrops(LongSupplier supplier) {
        kernelReceiveDrops.set(Objects.requireNonNull(supplier, "supplier"));
        return this;
    }

    /** How the relay threads do UDP I/O ({@code ffm}, {@code netty}, {@code none}), for {@code tern_udp_io}. */
    public RelayMetrics udpIo(Supplier<String> supplier) {
        udpIo.set(Objects.requireNonNull(supplier, "supplier"));
        return this;
    }

    /** The fleet agent ({@code --cluster-redis}), for the {@code tern_fleet_*} metrics; set before {@link #register}. */
    public RelayMetrics fleet(RedisFleet agent) {
        fleet.set(agent);
        return this;
    }

    public boolean draining() {
        return draining.getAsBoolean();
    }

    /** Active allocations over every engine and transport. */
    public long activeAllocations() {
        long total = 0;
        for (TurnEngine engine : engines.get()) {
            for (TransportProtocol transport : TRANSPORTS) {
                total += engine.counters().activeAllocations(transport);
            }
        }
        return total;
    }

    /** Registers every {@code tern_*} collector with {@code registry}. */
    public void register(PrometheusRegistry registry) {
        new MetricTable(registry)
                .gauge(
                        "tern_allocations_active",
                        "Allocations currently open, by the client's transport",
                        MetricTable.labels("transport"),
                        this::allocationsActive)
                .counter(
                        "tern_relayed_packets",
                        "Application data packets relayed, by direction and the client's transport",
                        MetricTable.labels("direction", "transport"),
                        sink -> relayed(sink, false))
                .counter(
                        "tern_relayed_bytes",
                        "Application data bytes relayed (payload only, no STUN/ChannelData header), by direction and the client's transport",
                        MetricTable.labels("direction", "transport"),
                        sink -> relayed(sink, true))
                .counter(
                        "tern_requests",
                        "STUN/TURN requests received, and Send indications, by method",
                        MetricTable.labels("method"),
                        this::requests)
                .counter(
                        "tern_error_responses",
                        "Error responses sent, by STUN error code",
                        MetricTable.labels("code"),
                        this::errorResponses)
                .counter(
                        "tern_auth_failures",
                        "Signed requests refused with 401: unknown or expired username, or MESSAGE-INTEGRITY that does not verify",
                        this::authFailures)
                .counter(
                        "tern_dropped_packets",
                        "Packets dropped silently, by reason",
                        MetricTable.labels("reason"),
                        this::droppedPackets)
                .gauge(
                        "tern_connections_open",
                        "TCP and TLS client connections open now (UDP has none)",
                        () -> openConnections.get().getAsLong())
                .counter(
                        "tern_connection_events",
                        "TCP and TLS client connection events: accepted, closed, refused at a limit, timed out, bad framing, TLS handshake failures",
                        MetricTable.labels("event"),
                        this::connectionEvents)
                .gauge(
                        "tern_udp_io",
                        "1, labelled with how the relay threads do UDP I/O: ffm (recvmmsg/sendmmsg through FFM), netty, or none",
                        MetricTable.labels("io"),
                        sink -> sink.sample(1, udpIo.get().get()))
                .gauge(
                        "tern_draining",
                        "1 in drain mode (new allocations refused with 508), else 0",
                        () -> draining.getAsBoolean() ? 1 : 0);
        RedisFleet agent = fleet.get();
        if (agent != null) {
            FleetMetrics.register(registry, agent);
        }
    }

    private void allocationsActive(MetricTable.Sink sink) {
        long[] sums = new long[TRANSPORTS.length];
        for (TurnEngine engine : engines.get()) {
            for (int t = 0; t < TRANSPORTS.length; t++) {
                sums[t] += engine.counters().activeAllocations(TRANSPORTS[t]);
            }
        }
        for (int t = 0; t < TRANSPORTS.length; t++) {
            sink.sample(sums[t], TRANSPORT_LABELS[t]);
        }
    }

    private void requests(MetricTable.Sink sink) {
        for (int m = 0; m < METHODS.length; m++) {
            long sum = 0;
            for (TurnEngine engine : engines.get()) {
                sum += engine.counters().requests(METHODS[m]);
            }
            sink.sample(sum, METHOD_LABELS[m]);
        }
    }

    private void errorResponses(MetricTable.Sink sink) {
        for (int c = 0; c < ERROR_CODES.length; c++) {
            long sum = 0;
            for (TurnEngine engine : engines.get()) {
                sum += engine.counters().errors(ERROR_CODES[c]);
            }
            sink.sample(sum, ERROR_CODE_LABELS[c]);
        }
    }

    private long authFailures() {
        long sum = 0;
        for (TurnEngine engine : engines.get()) {
            sum += engine.counters().authFailures();
        }
        return sum;
    }

    private void droppedPackets(MetricTable.Sink sink) {
        for (int r = 0; r < DROP_REASONS.length; r++) {
            long sum = DROP_REASONS[r] == DropReason.SOCKET_RECEIVE_BUFFER_FULL
                    ? kernelReceiveDrops.get().getAsLong()
                    : 0;
            for (TurnEngine engine : engines.get()) {
                sum += engine.counters().drops(DROP_REASONS[r]);
            }
            sink.sample(sum, DROP_REASON_LABELS[r]);
        }
    }

    private void connectionEvents(MetricTable.Sink sink) {
        StreamCounters counters = streamCounters.get();
        for (int e = 0; e < STREAM_EVENTS.length; e++) {
            sink.sample(counters == null ? 0 : counters.count(STREAM_EVENTS[e]), STREAM_EVENT_LABELS[e]);
        }
    }

    private void relayed(MetricTable.Sink sink, boolean bytes) {
        long[] sums = new long[DIRECTIONS.length * TRANSPORTS.length];
        for (TurnEngine engine : engines.get()) {
            TurnCounters counters = engine.counters();
            for (int d = 0; d < DIRECTIONS.length; d++) {
                for (int t = 0; t < TRANSPORTS.length; t++) {
                    sums[d * TRANSPORTS.length + t] += bytes
                            ? counters.relayedBytes(DIRECTIONS[d], TRANSPORTS[t])
                            : counters.relayedPackets(DIRECTIONS[d], TRANSPORTS[t]);
                }
            }
        }
        for (int d = 0; d < DIRECTIONS.length; d++) {
            for (int t = 0; t < TRANSPORTS.length; t++) {
                sink.sample(sums[d * TRANSPORTS.length + t], DIRECTION_LABELS[d], TRANSPORT_LABELS[t]);
            }
        }
    }

    private static String[] labels(Enum<?>[] values) {
        String[] labels = new String[values.length];
        for (int i = 0; i < values.length; i++) {
            labels[i] = values[i].name().toLowerCase(Locale.ROOT);
        }
        return labels;
    }

    private static String[] codeLabels(int[] codes) {
        String[] labels = new String[codes.length];
        for (int i = 0; i < codes.length; i++) {
            labels[i] = Integer.toString(codes[i]);
        }
        return labels;
    }

    /** RFC 8656 method names in snake case: {@code create_permission}, {@code channel_bind}, ... */
    static String methodLabel(int method) {
        return switch (method) {
            case StunMethod.BINDING -> "binding";
            case StunMethod.ALLOCATE -> "allocate";
            case StunMethod.REFRESH -> "refresh";
            case StunMethod.SEND -> "send";
            case StunMethod.DATA -> "data";
            case StunMethod.CREATE_PERMISSION -> "create_permission";
            case StunMethod.CHANNEL_BIND -> "channel_bind";
            case StunMethod.CONNECT -> "connect";
            case StunMethod.CONNECTION_BIND -> "connection_bind";
            default -> "0x" + Integer.toHexString(method);
        };
    }

    private static String[] methodLabels(int[] methods) {
        String[] labels = new String[methods.length];
        for (int i = 0; i < methods.length; i++) {
            labels[i] = methodLabel(methods[i]);
        }
        return labels;
    }
}
