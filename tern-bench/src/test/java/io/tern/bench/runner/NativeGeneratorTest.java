package io.tern.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.harness.sample.ProcStats;
import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.load.LoadConfig;
import io.tern.bench.load.LoadGenerator;
import io.tern.bench.load.NativeBinaries;
import io.tern.bench.load.RunResult;
import io.tern.bench.load.Transport;
import io.tern.testkit.ExternalPeers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The C pieces of the benchmark, built with gcc as the runner builds them: turnload runs the
 * data phase on sockets the Java client set up, against coturn (UDP and TCP) and against the
 * minimal forwarder, with every echo checked. With CI=true a missing gcc or turnserver fails.
 */
class NativeGeneratorTest {
    private static final String TURNSERVER = "/usr/bin/turnserver";

    @ParameterizedTest
    @CsvSource({"minifwd, UDP", "coturn, UDP", "coturn, TCP"})
    void turnloadRelaysThroughTheServer(String server, Transport transport, @TempDir Path dir) throws Exception {
        ExternalPeers.requireAt(Path.of("/usr/bin/gcc"), "gcc");
        Path repoRoot = Path.of("").toAbsolutePath().getParent();
        ServerKind kind;
        if (server.equals(Forwarder.NAME)) {
            kind = new Forwarder(NativeBinaries.build(repoRoot, "minifwd"));
        } else {
            ExternalPeers.requireAt(Path.of(TURNSERVER), "coturn");
            kind = new Coturn(TURNSERVER);
        }
        Path turnload = NativeBinaries.build(repoRoot, "turnload");
        int port = FreePorts.between(37000, 37999);
        ServerKind.Settings s = new ServerKind.Settings(
                new Cell(transport, 3, 200, 1, 1, 8),
                port,
                port + 1,
                62000,
                62999,
                "native-secret",
                "native.realm",
                dir,
                dir.resolve("cert.pem"),
                dir.resolve("key.pem"));
        try (ServerProcess p =
                RelayReadiness.start(kind.command(s), dir, dir.resolve("out.log"), transport, port, 20_000)) {
            LoadConfig c = new LoadConfig(
                    new InetSocketAddress("127.0.0.1", port),
                    transport,
                    3,
                    1,
                    200,
                    8,
                    3_000,
                    0.0,
                    30,
                    300,
                    0,
                    1000,
                    "native-secret",
                    "native.realm",
                    "it",
                    p.pid(),
                    kind.name(),
                    kind.version(),
                    1,
                    1,
                    false,
                    turnload,
                    !kind.authenticates());
            RunResult r = new LoadGenerator(c).run();
            assertThat(r.generator()).isEqualTo("c");
            assertThat(r.roundTrips()).isGreaterThanOrEqualTo(3_000);
            assertThat(r.deliveredForwardedPackets()).isEqualTo(2 * r.roundTrips());
            assertThat(r.lossOrCorruption()).isZero();
            assertThat(r.roundTripP99Us())
                    .isGreaterThanOrEqualTo(r.roundTripP50Us())
                    .isPositive();
            // turnload read the server's CPU time at the edges of the measured phase.
            assertThat(r.serverCpuSeconds()).isGreaterThanOrEqualTo(0);
            assertThat(ProcStats.comm(p.pid())).isIn("turnserver", "minifwd");
        }
    }
}
