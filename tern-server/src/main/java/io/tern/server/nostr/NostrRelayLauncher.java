package io.tern.server.nostr;

import io.tern.netty.nostr.NostrRelay;
import io.tern.netty.nostr.NostrServer;
import io.tern.nostr.crypto.SchnorrVerifiers;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.store.sqlite.SqliteEventStore;
import io.tern.server.config.TernVersion;
import io.tern.server.log.Logs;
import io.tern.server.metrics.MetricsEndpoint;
import io.tern.server.metrics.NostrMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;

/**
 * {@code tern nostr}: opens the store, starts the relay (and the metrics endpoint when asked),
 * prints one start-up line with the relay's URL, and runs until SIGTERM or SIGINT.
 */
public final class NostrRelayLauncher implements NostrCommand.Launcher {
    /** How long start-up waits for the fleet's bus to LISTEN before it announces the relay. */
    private static final long BUS_START_WAIT_NS = 10_000_000_000L;

    private final PrintStream out;

    public NostrRelayLauncher(PrintStream out) {
        this.out = out;
    }

    /** A started relay and its metrics endpoint (null when off). */
    public record Running(NostrServer server, MetricsEndpoint metrics) implements AutoCloseable {
        @Override
        public void close() {
            if (metrics != null) {
                metrics.close();
            }
            server.close();
        }
    }

    @Override
    public int launch(NostrSettings settings) throws Exception {
        Logs.installConsole(Logs.requested().orElse(Level.INFO));
        Running running = start(settings, out);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            running.close();
                            stopped.countDown();
                        },
                        "tern-nostr-shutdown"));
        stopped.await();
        return 0;
    }

    /** Starts everything {@code settings} asks for and prints the start-up line to {@code out}. */
    public static Running start(NostrSettings settings, PrintStream out) throws Exception {
        NostrConfig config = settings.relayConfig();
        SchnorrVerifiers.Choice crypto = MountedRelay.verifier();
        NostrServer server = bind(settings, config, crypto, settings.listenAddress());
        MetricsEndpoint metrics = null;
        if (settings.prometheus()) {
            try {
                NostrMetrics collectors = new NostrMetrics(server.relay());
                metrics = MetricsEndpoint.start(collectors::register, () -> false, settings.prometheusAddress());
            } catch (IOException e) {
                server.close();
                throw new IOException(
                        "cannot serve Prometheus metrics on " + settings.prometheusAddress() + ": " + e.getMessage(),
                        e);
            }
        }
        out.println(startLine(settings, config, server, crypto));
        if (metrics != null) {
            out.println("Prometheus metrics on http://" + hostPort(metrics.address()) + "/metrics, health on /health");
        }
        out.flush();
        return new Running(server, metrics);
    }

    private static NostrServer bind(
            NostrSettings settings, NostrConfig config, SchnorrVerifiers.Choice crypto, InetSocketAddress address)
            throws Exception {
        PostgresFleetLink[] fleet = new PostgresFleetLink[1];
        NostrRelay.StoreOpener opener = settings.postgres()
                ? sink -> fleet[0] = PostgresFleetLink.open(settings.postgresConfig(), config.nip09(), sink)
                : sink -> SqliteEventStore.open(settings.storeConfig(), config.nip09(), sink, System::nanoTime);
        NostrServer server;
        try {
            server = NostrServer.start(
                    address,
                    settings.threads(),
                    config,
                    opener,
                    crypto.verifier(),
                    () -> System.currentTimeMillis() / 1000,
                    TernVersion.version());
        } catch (IOException e) {
            throw new IOException("cannot listen on " + hostPort(address) + ": " + e.getMessage(), e);
        }
        if (fleet[0] != null) {
            fleet[0].attach(server.relay());
            // Live fan-out from the other nodes starts once the bus listens; a node that cannot
            // reach the database now keeps trying, and says so.
            long deadlineNs = System.nanoTime() + BUS_START_WAIT_NS;
            while (!fleet[0].bus().listening() && System.nanoTime() < deadlineNs) {
                Thread.sleep(20);
            }
        }
        return server;
    }

    private static String startLine(
            NostrSettings settings, NostrConfig config, NostrServer server, SchnorrVerifiers.Choice crypto) {
        InetSocketAddress bound = server.localAddress();
        String url = config.publicUrl() != null
                ? config.publicUrl()
                : "ws://" + (bound.getAddress().isAnyLocalAddress() ? "localhost:" + bound.getPort() : hostPort(bound))
                        + "/";
        return "Tern Nostr relay on " + url + " (listening on " + hostPort(bound) + "; NIP-11 on the same URL),"
                + " database " + settings.databaseName() + ", auth "
                + config.authMode().name().toLowerCase(java.util.Locale.ROOT)
                + ", " + settings.threads() + " thread(s), signatures by "
                + crypto.verifier().name();
    }

    private static String hostPort(InetSocketAddress address) {
        String host = address.getAddress().getHostAddress();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
