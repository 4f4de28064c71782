package io.tern.server.origin;

import io.tern.server.cli.OriginServerLauncher;
import io.tern.server.log.Logs;
import io.tern.server.origin.api.ApiAccess;
import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.config.LogLevel;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import io.tern.server.origin.ingest.SrtIngest;
import io.tern.server.origin.registry.StreamNames;
import io.tern.server.origin.web.WebRoutes;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Instant;
import java.util.Collections;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.logging.Level;

/**
 * {@code tern origin}: starts the {@link OriginServer}, prints where to publish and play (with a
 * working example token, and the generated secret once, as the relay prints its own), and runs
 * until SIGTERM or SIGINT.
 */
public final class OriginLauncher implements OriginServerLauncher {
    private static final System.Logger LOG = System.getLogger("tern.origin");
    /** The stream name of the printed example URLs. */
    static final String EXAMPLE_STREAM = "cam1";

    private final PrintStream out;

    public OriginLauncher(PrintStream out) {
        this.out = out;
    }

    @Override
    public int launch(OriginConfig config) throws Exception {
        configureLogging(config.get(OriginOptions.LOG_LEVEL));
        OriginServer server = OriginServer.start(config);
        server.registry().addPublishListener(publishAnnouncer(out, server));
        out.println("Tern origin: " + server.summary());
        for (String line : announcement(server).split("\n")) {
            out.println(line);
        }
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LOG.log(System.Logger.Level.INFO, "shutting down");
                            server.close();
                            stopped.countDown();
                        },
                        "tern-shutdown"));
        stopped.await();
        return 0;
    }

    /** What a new user needs: where to publish (with a token valid for a day) and where to play. */
    public static String announcement(OriginServer server) {
        String host = displayHost(server.config().get(OriginOptions.LISTEN));
        String rtmp = "rtmp://" + host + ":" + server.rtmpAddress().getPort();
        String play = "http://" + host + ":" + server.httpPort() + "/" + StreamNames.APP + "/" + EXAMPLE_STREAM
                + "/index.m3u8";
        PublishPolicy policy = server.registry().policy();
        StringBuilder text = new StringBuilder();
        if (policy.tokensByDefault()) {
            text.append(policy.serverSecret()
                    .announcement(
                            rtmp,
                            StreamNames.APP,
                            EXAMPLE_STREAM,
                            Instant.now().getEpochSecond(),
                            policy.serverTokens()));
        } else {
            text.append("Publish with: ")
                    .append(rtmp)
                    .append('/')
                    .append(StreamNames.APP)
                    .append('/')
                    .append(EXAMPLE_STREAM)
                    .append(" (no token needed: --no-publish-auth)");
        }
        text.append("\n")
                .append(SrtIngest.exampleUrl(
                        server.registry().policy(),
                        server.config(),
                        host,
                        server.srtAddress().getPort(),
                        EXAMPLE_STREAM));
        text.append("\nWatch: ")
                .append(webBase(server))
                .append(WebRoutes.watchPath(EXAMPLE_STREAM))
                .append(" (every live stream: ")
                .append(webBase(server))
                .append("/)");
        text.append("\nPlay: ").append(play);
        if (server.httpsPort() > 0) {
            text.append(" (or https://")
                    .append(host)
                    .append(':')
                    .append(server.httpsPort())
                    .append(" for HTTP/2)");
        }
        if (server.swarmKey() != null) {
            text.append("\nSwarm origin key (")
                    .append(server.swarmKey().created() ? "created now in " : "from ")
                    .append(server.config().get(OriginOptions.SWARM_KEY_FILE))
                    .append("): ")
                    .append(server.swarmKey().key().publicB64url());
        }
        text.append("\nAPI: ")
                .append(webBase(server))
                .append("/api/v1/streams (")
                .append(
                        ApiAccess.from(server.config()).tokenRequired()
                                ? "loopback, or with the bearer token of --api-token"
                                : "loopback only; --api-token opens it to others")
                .append(')');
        if (server.metricsPort() > 0) {
            text.append("\nPrometheus metrics on http://*:")
                    .append(server.metricsPort())
                    .append("/metrics");
        }
        return text.toString();
    }

    /** Prints the watch page's URL of every stream published from now on. */
    public static Consumer<String> publishAnnouncer(PrintStream out, OriginServer server) {
        String web = webBase(server);
        return name -> {
            out.println("Live: live/" + name + ", watch at " + web + WebRoutes.watchPath(name));
            out.flush();
        };
    }

    /** {@code http://HOST:PORT} of the HTTP port, as printed. */
    static String webBase(OriginServer server) {
        return "http://" + displayHost(server.config().get(OriginOptions.LISTEN)) + ":" + server.httpPort();
    }

    /** The address to print: the listen address, or for a wildcard the host's first non-loopback IPv4 one. */
    static String displayHost(InetAddress listen) {
        if (!listen.isAnyLocalAddress()) {
            String text = listen.getHostAddress();
            return text.contains(":") ? "[" + text + "]" : text;
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // fall through to loopback
        }
        return "127.0.0.1";
    }

    private static void configureLogging(LogLevel level) {
        Logs.installConsole(
                switch (level) {
                    case WARNING -> Level.WARNING;
                    case INFO -> Level.INFO;
                    case DEBUG -> Level.FINE;
                });
    }
}
