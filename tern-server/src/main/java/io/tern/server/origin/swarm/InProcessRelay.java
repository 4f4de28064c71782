package io.tern.server.origin.swarm;

import io.tern.server.config.CoturnConfigReader;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.config.WarningSink;
import io.tern.server.option.ConfigException;
import io.tern.server.origin.api.RelaySummary;
import io.tern.server.origin.api.RelaySummarySource;
import io.tern.server.relay.RelayServer;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Tern's TURN relay in the origin's process ({@code --turn-config FILE}): the same {@link
 * RelayServer} {@code tern turn} runs, configured by the same coturn-format file through the same
 * reader and assembler, on its own threads. The origin hands viewers REST credentials for it and
 * summarises it on {@code GET /api/v1/turn}.
 */
public final class InProcessRelay implements RelaySummarySource, AutoCloseable {
    /** The relayed rate is measured over at least this long between two summaries. */
    private static final long RATE_INTERVAL_NS = 1_000_000_000L;

    private final RelayServer server;
    private final TurnServerConfig config;
    private final LongSupplier nanoTime;
    private long lastNs;
    private long lastBytes;
    private long bitsPerSecond;

    private InProcessRelay(RelayServer server, TurnServerConfig config, LongSupplier nanoTime) {
        this.server = server;
        this.config = config;
        this.nanoTime = nanoTime;
        this.lastNs = nanoTime.getAsLong();
    }

    /**
     * Reads and checks {@code file}, then starts the relay.
     *
     * @throws ConfigException naming {@code option} and the file when the relay's configuration is
     *     unusable, or gives viewers no way to authenticate (it needs {@code use-auth-secret})
     */
    public static InProcessRelay start(Path file, String option, WarningSink warnings, LongSupplier nanoTime)
            throws InterruptedException {
        TurnServerConfig config;
        try {
            config = new TurnServerConfigAssembler(warnings)
                    .assemble(new CoturnConfigReader(warnings).read(file), List.of());
        } catch (ConfigException e) {
            throw new ConfigException("Option '" + option + "' " + file + ": " + e.getMessage());
        }
        if (config.restApiSecrets().isEmpty()) {
            throw new ConfigException("Option '" + option + "' " + file
                    + ": the relay must take TURN REST credentials (use-auth-secret, or no auth option: a generated secret) so"
                    + " that the origin can hand them to viewers");
        }
        return new InProcessRelay(RelayServer.start(config), config, nanoTime);
    }

    /** Credentials and URLs for viewers: every transport the relay listens on, at the host they reached. */
    public TurnAccess access(InstantSource wallClock, SecureRandom random) {
        List<Integer> udp = ports(server.udpAddresses());
        List<Integer> tcp = ports(server.tcpAddresses());
        List<Integer> tls = ports(server.tlsAddresses());
        return new TurnAccess(
                host -> TurnAccess.urls(host, udp, tcp, tls),
                config.restApiSecrets().getFirst(),
                config.restApiSeparator(),
                wallClock,
                random);
    }

    public RelayServer server() {
        return server;
    }

    public String summaryLine() {
        return server.summary();
    }

    @Override
    public synchronized RelaySummary summary() {
        Map<String, Long> allocations = new LinkedHashMap<>();
        long bytes = 0;
        for (TransportProtocol transport : TransportProtocol.values()) {
            allocations.put(transport.name().toLowerCase(Locale.ROOT), 0L);
        }
        for (TurnEngine engine : server.engines()) {
            TurnCounters counters = engine.counters();
            for (TransportProtocol transport : TransportProtocol.values()) {
                allocations.merge(
                        transport.name().toLowerCase(Locale.ROOT), counters.activeAllocations(transport), Long::sum);
                bytes += counters.relayedBytes(TurnCounters.DIRECTION_CLIENT_TO_PEER, transport)
                        + counters.relayedBytes(TurnCounters.DIRECTION_PEER_TO_CLIENT, transport);
            }
        }
        long nowNs = nanoTime.getAsLong();
        if (nowNs - lastNs >= RATE_INTERVAL_NS) {
            bitsPerSecond = (long) ((bytes - lastBytes) * 8e9 / (nowNs - lastNs));
            lastNs = nowNs;
            lastBytes = bytes;
        }
        return new RelaySummary(allocations, bitsPerSecond);
    }

    private static List<Integer> ports(List<InetSocketAddress> addresses) {
        return addresses.stream().map(InetSocketAddress::getPort).distinct().toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
