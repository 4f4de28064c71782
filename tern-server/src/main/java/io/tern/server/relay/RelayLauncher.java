package io.tern.server.relay;

import io.tern.server.cli.TurnServerLauncher;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.Verbosity;
import io.tern.server.drain.RelayDrain;
import io.tern.server.log.Logs;
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
 * SIGINT. SIGUSR1 (and SIGTERM with {@code drain-on-term}) switches to drain mode: new Allocates
 * are redirected with 300 to an alternate or, without one, refused with 508 as in coturn,
 * {@code /ready} and {@code /health} answer 503, and the process exits once allocations are down to
 * {@code drain-min-allocations}. With {@code --prometheus} it serves {@code /metrics},
 * {@code /health} and {@code /ready} on {@code --prometheus-port}.
 */
public final class RelayLauncher implements TurnServerLauncher {
    private static final System.Logger LOG = System.getLogger("tern");
    /** How often a drain looks at the allocation count and the alternates. */
    private static final long DRAIN_PERIOD_MS = 1000;

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
        RelayMetrics allocations = metrics != null ? metrics.metrics() : MetricsEndpoint.forServer(server);
        Runnable startDrain = () -> {
            if (!server.draining()) {
                server.refreshAlternates();
                out.println("Drain mode: exiting once allocations are at most " + config.drainMinAllocations()
                        + "; new Allocates "
                        + (server.alternates().isEmpty()
                                ? "refused (508): no alternate server known"
                                : "redirected (300) to " + server.alternates()));
                out.flush();
                server.drain();
            }
        };
        handle("USR1", signal -> startDrain.run());
        if (config.drainOnTerm()) {
            // The first SIGTERM drains; a second one, or SIGINT, stops at once through the shutdown hook.
            handle("TERM", signal -> {
                if (server.draining()) {
                    System.exit(0);
                }
                startDrain.run();
            });
        }
        RelayDrain.start(
                server::draining,
                allocations::activeAllocations,
                config.drainMinAllocations(),
                server::refreshAlternates,
                () -> {
                    out.println("Drain mode: allocations down to " + allocations.activeAllocations() + ", exiting");
                    out.flush();
                    stopped.countDown();
                },
                DRAIN_PERIOD_MS);
        stopped.await();
        return 0;
    }

    private static void handle(String signal, sun.misc.SignalHandler handler) {
        try {
            Signal.handle(new Signal(signal), handler);
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "SIG" + signal + " drain unavailable: " + e.getMessage());
        }
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
