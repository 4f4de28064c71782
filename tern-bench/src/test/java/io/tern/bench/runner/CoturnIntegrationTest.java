package io.tern.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.harness.sample.ProcStats;
import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.load.LoadConfig;
import io.tern.bench.load.LoadGenerator;
import io.tern.bench.load.RunResult;
import io.tern.bench.load.Transport;
import io.tern.testkit.ExternalPeers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A tiny real load against coturn. With CI=true a missing turnserver fails the test instead of skipping it. */
class CoturnIntegrationTest {
    private static final String TURNSERVER = "/usr/bin/turnserver";

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"UDP", "TCP"})
    void tinyLoadThroughCoturn(Transport transport, @TempDir Path dir) throws Exception {
        ExternalPeers.requireAt(Path.of(TURNSERVER), "coturn");
        int port = FreePorts.between(36000, 36999);
        Cell cell = new Cell(transport, 2, 160, 1, 2, 8);
        ServerKind.Settings s = new ServerKind.Settings(
                cell,
                port,
                port + 1,
                61000,
                61999,
                "it-secret",
                "it.realm",
                dir,
                dir.resolve("cert.pem"),
                dir.resolve("key.pem"));
        Coturn coturn = new Coturn(TURNSERVER);
        try (ServerProcess server =
                RelayReadiness.start(coturn.command(s), dir, dir.resolve("out.log"), transport, port, 20_000)) {
            assertThat(ProcStats.comm(server.pid())).isEqualTo("turnserver");
            LoadConfig c = new LoadConfig(
                    new InetSocketAddress("127.0.0.1", port),
                    transport,
                    2,
                    2,
                    160,
                    8,
                    2_000,
                    0.0,
                    30,
                    200,
                    1000,
                    "it-secret",
                    "it.realm",
                    "it",
                    server.pid(),
                    "coturn",
                    coturn.version(),
                    1,
                    1);
            RunResult r = new LoadGenerator(c).run();
            assertThat(r.roundTrips()).isGreaterThanOrEqualTo(2_000);
            assertThat(r.deliveredForwardedPackets()).isEqualTo(2 * r.roundTrips());
            assertThat(r.lossOrCorruption()).isZero();
            assertThat(r.roundTripP50Us()).isPositive();
            assertThat(r.roundTripP99Us()).isGreaterThanOrEqualTo(r.roundTripP50Us());
            assertThat(r.loadedRssBytes()).isPositive();
            assertThat(r.peakSampledRssBytes()).isGreaterThanOrEqualTo(r.loadedRssBytes());
            assertThat(r.serverCpuSeconds()).isGreaterThanOrEqualTo(0);
            // Two relay sockets, plus the UDP listener when the client transport is UDP.
            assertThat(r.loadedUdpSockets()).isEqualTo(transport == Transport.UDP ? 3 : 2);
            assertThat(r.serverVersion()).startsWith("coturn 4.");
        }
    }
}
