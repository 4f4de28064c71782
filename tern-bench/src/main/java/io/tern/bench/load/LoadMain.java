package io.tern.bench.load;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Command line for one load-generator run against an already running TURN server; prints one JSON line. */
@Command(
        name = "tern-load",
        mixinStandardHelpOptions = true,
        description = "Closed-loop TURN ChannelData load over loopback; prints one JSON object.")
public final class LoadMain implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "3478", description = "server port on 127.0.0.1")
    int port;

    @Option(names = "--transport", defaultValue = "udp", description = "udp, tcp or tls")
    String transport;

    @Option(names = "--clients", defaultValue = "1")
    int clients;

    @Option(
            names = "--load-workers",
            defaultValue = "0",
            description = "0: half the CPUs, at least 1, at most the clients")
    int loadWorkers;

    @Option(names = "--payload", defaultValue = "1200", description = "payload bytes")
    int payload;

    @Option(names = "--window", defaultValue = "8", description = "packets in flight per load worker")
    int window;

    @Option(names = "--round-trips", defaultValue = "200000")
    long roundTrips;

    @Option(names = "--min-seconds", defaultValue = "2")
    double minSeconds;

    @Option(names = "--max-seconds", defaultValue = "60")
    double maxSeconds;

    @Option(names = "--warmup-round-trips", defaultValue = "20000")
    long warmup;

    @Option(names = "--warmup-seconds", defaultValue = "0", description = "minimum warm-up duration")
    double warmupSeconds;

    @Option(names = "--loss-timeout-ms", defaultValue = "1000")
    long lossTimeoutMs;

    @Option(names = "--secret", required = true, description = "static-auth-secret")
    String secret;

    @Option(names = "--realm", defaultValue = "tern.bench")
    String realm;

    @Option(names = "--user", defaultValue = "bench")
    String user;

    @Option(names = "--server-pid", defaultValue = "-1")
    long serverPid;

    @Option(names = "--server-name", defaultValue = "unknown")
    String serverName;

    @Option(names = "--server-version", defaultValue = "unknown")
    String serverVersion;

    @Option(names = "--relay-threads", defaultValue = "1")
    int relayThreads;

    @Option(names = "--repeat", defaultValue = "1")
    int repeat;

    @Option(names = "--connected-udp", description = "connect UDP client sockets to the server")
    boolean connectedUdp;

    @Option(
            names = "--native-generator",
            description = "turnload binary for the warm-up and measured phases (UDP, TCP); "
                    + "'build' compiles tern-bench/src/main/c/turnload.c under the current directory")
    String nativeGenerator;

    @Option(names = "--no-auth", description = "the server does not authenticate (the minimal forwarder)")
    boolean noAuth;

    @Override
    public Integer call() throws Exception {
        LoadConfig c = new LoadConfig(
                new InetSocketAddress("127.0.0.1", port),
                Transport.parse(transport),
                clients,
                loadWorkers > 0 ? loadWorkers : LoadConfig.defaultWorkers(clients),
                payload,
                window,
                roundTrips,
                minSeconds,
                maxSeconds,
                warmup,
                warmupSeconds,
                lossTimeoutMs,
                secret,
                realm,
                user,
                serverPid,
                serverName,
                serverVersion,
                relayThreads,
                repeat,
                connectedUdp,
                nativeGenerator == null
                        ? null
                        : nativeGenerator.equals("build")
                                ? NativeBinaries.build(java.nio.file.Path.of("").toAbsolutePath(), "turnload")
                                : java.nio.file.Path.of(nativeGenerator),
                noAuth);
        LoadGenerator g = new LoadGenerator(c);
        RunResult r = g.run();
        System.err.println("tern-load: " + g.diagnostics());
        System.out.println(r.toJson());
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new LoadMain()).execute(args));
    }
}
