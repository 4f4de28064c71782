package io.tern.server.relay;

import io.tern.server.cli.TurnServerLauncher;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.Verbosity;
import io.tern.server.log.Logs;
import io.tern.server.metrics.DrainWatch;
import io.tern.server.metrics.MetricsEndpoint;
import io.tern.server.metrics.RelayMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import sun.misc.Signal;

/**
 * {@code tern turn}: starts the relay, prints the generated secret once, and runs until SIGTERM or
 * SIGINT. SIGUSR1 switches to drain mode, as in coturn: new allocations are refused with 508,
 * {@code /health} answers 503, and the process exits once the last allocation is gone. With
 * {@code --prometheus} it serves {@code /metrics} and {@code /health} on {@code --prometheus-port}.
 */
public final class RelayLauncher implements TurnServerLauncher {
    private static final System.Logger LOG = System.getLogger("tern");

    private final PrintStream out;

    public RelayLauncher(PrintStream out) {
        this.out = out;
    }

    @Override
    public int launch(TurnServerConfig config) throws Exception {
        configureLogging(config);
        RelayServer server = RelayServer.start(config);
        MetricsEndpoint metrics;
        try {
            metrics = config.prometheus() ? MetricsEndpoint.start(server, config.prometheusPort()) : null;
        } catch (IOException e) {
            server.close();
            throw new IOException(
                    "cannot serve Prometheus metrics on port " + config.prometheusPort() + ": " + e.getMessage(), e);
        }
        config.generatedSecret()
                .ifPresent(secret ->
                        out.println("Generated TURN REST shared secret (static-auth-secret), shown once: " + secret));
        if (config.pidFile().isPresent()) {
            writePid(config.pidFile().get());
        }
        out.println("Tern relay " + server.summary());
        if (metrics != null) {
            out.println("Prometheus metrics on http://*:" + metrics.address().getPort()
                    + "/metrics (all interfaces, as coturn), health on /health");
        }
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    LOG.log(System.Logger.Level.INFO, "shutting down");
                    if (metrics != null) {
                        metrics.close();
                    }
                    server.close();
                    stopped.countDown();
                },
                "tern-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Signal.handle(new Signal("USR1"), signal -> {
                out.println("SIGUSR1: drain mode, new allocations refused; exiting once the last allocation is gone");
                out.flush();
                server.drain();
            });
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "SIGUSR1 drain mode unavailable: " + e.getMessage());
        }
        RelayMetrics allocations = metrics != null ? metrics.metrics() : MetricsEndpoint.forServer(server);
        DrainWatch.start(
                server::draining,
                allocations::activeAllocations,
                () -> {
                    out.println("Drain mode: last allocation gone, exiting");
                    out.flush();
                    stopped.countDown();
                },
                1000);
        stopped.await();
        return 0;
    }

    private static void writePid(Path pidFile) throws IOException {
        Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
        pidFile.toFile().deleteOnExit();
    }

    private static void configureLogging(TurnServerConfig config) throws IOException {
        Level level = switch (config.verbosity()) {
            case NONE -> Level.WARNING;
            case NORMAL -> Level.INFO;
            case EXTRA -> Level.FINE;
        };
        Handler handler;
        String logFile = config.logFile().orElse("stdout");
        if (logFile.equals("stdout") || logFile.equals("-") || logFile.equals("syslog")) {
            // Tern has no syslog client; under systemd, standard output reaches the journal anyway.
            handler = new ConsoleHandler();
        } else {
            handler = new FileHandler(logFile, true);
        }
        Logs.install(Logs.requested().orElse(level), handler);
        // coturn's default verbosity still reports the relay's own start-up and lifecycle lines;
        // an explicit --log-level means what it says.
        boolean lifecycleLines = Logs.requested().isEmpty() && config.verbosity() == Verbosity.NONE;
        Logger.getLogger("tern").setLevel(lifecycleLines ? Level.INFO : null);
    }
}
