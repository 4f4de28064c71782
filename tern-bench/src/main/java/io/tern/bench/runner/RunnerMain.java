package io.tern.bench.runner;

import io.tern.bench.harness.matrix.JsonlLog;
import io.tern.bench.harness.matrix.Matrix;
import io.tern.bench.harness.report.Preamble;
import io.tern.bench.harness.sample.Host;
import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.harness.server.TernSnapshot;
import io.tern.bench.load.Json;
import io.tern.bench.load.LoadConfig;
import io.tern.bench.load.LoadGenerator;
import io.tern.bench.load.NativeBinaries;
import io.tern.bench.load.RunResult;
import io.tern.bench.load.Transport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs the Tern/coturn comparison matrix: a fresh server process per run, servers alternating
 * within each cell and repeat, results appended to a JSONL file, then a Markdown summary and a
 * PNG chart. All traffic is on 127.0.0.1.
 */
@Command(
        name = "bench/run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Tern vs coturn TURN relay benchmark over loopback.")
public final class RunnerMain implements Callable<Integer> {
    private static final int MIN_RELAY_PORT = 50000;
    private static final int MAX_RELAY_PORT = 59999;

    @Option(names = "--quick", description = "small subset for development (about two minutes with both servers)")
    boolean quick;

    @Option(
            names = "--servers",
            split = ",",
            description = "tern, coturn and/or minifwd (the minimal C forwarder, UDP cells only), in run order "
                    + "(default: tern,coturn,minifwd)")
    List<String> servers = List.of("tern", "coturn", "minifwd");

    @Option(
            names = "--generator",
            defaultValue = "c",
            description = "c: the warm-up and measured phases run in turnload (tern-bench/src/main/c, built with gcc) "
                    + "on the sockets the Java client set up; TLS cells always use the Java generator. "
                    + "java: the Netty workers for every cell (default: ${DEFAULT-VALUE})")
    String generator;

    @Option(names = "--clients", split = ",")
    List<Integer> clients;

    @Option(names = "--payloads", split = ",")
    List<Integer> payloads;

    @Option(names = "--transports", split = ",")
    List<String> transports;

    @Option(
            names = "--relay-threads",
            split = ",",
            description = "relay thread counts; >1 only for cells with >1 client")
    List<Integer> relayThreads;

    @Option(names = "--tern-udp-io", description = "Tern's --udp-io (auto, ffm, netty); unset: Tern's default, auto")
    String ternUdpIo;

    @Option(names = "--repeats")
    Integer repeats;

    @Option(
            names = "--window",
            description = "packets in flight per load worker (default: 8 in total for one client, "
                    + "32 in total otherwise, divided among the load workers)")
    Integer window;

    @Option(
            names = "--load-workers",
            defaultValue = "0",
            description = "0: half the CPUs, at least 1, at most the clients (1 on a 2-CPU machine)")
    int loadWorkers;

    @Option(
            names = "--connected-udp",
            description = "connect UDP client sockets to the server (default: sendto on " + "unconnected sockets)")
    boolean connectedUdp;

    @Option(names = "--round-trips")
    Long roundTrips;

    @Option(names = "--min-seconds")
    Double minSeconds;

    @Option(names = "--warmup-round-trips")
    Long warmupRoundTrips;

    @Option(
            names = "--warmup-seconds",
            description = "minimum warm-up per run (default 5 s, quick 3 s): "
                    + "Tern's JIT compiler works for about 5 s after load starts")
    Double warmupSeconds;

    @Option(names = "--max-seconds", defaultValue = "60", description = "hard bound per phase")
    double maxSeconds;

    @Option(names = "--loss-timeout-ms", defaultValue = "1000")
    long lossTimeoutMs;

    @Option(names = "--repo-root", defaultValue = ".")
    Path repoRoot;

    @Option(names = "--out", description = "results directory (default <repo>/bench/results)")
    Path out;

    @Option(names = "--name", description = "file stem (default <date>-<host>, plus -quick for --quick)")
    String name;

    @Option(
            names = "--tern-command",
            defaultValue = "./tern turn",
            description = "launcher and subcommand; must exec the JVM (default: ${DEFAULT-VALUE})")
    String ternCommand;

    @Option(
            names = "--tern-transports",
            split = ",",
            defaultValue = "udp,tcp,tls",
            description = "transports Tern is asked to serve; others are skipped and noted")
    List<String> ternTransports;

    @Option(
            names = "--tern-snapshot",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "run Tern from a frozen copy of its build, made once before the matrix (default: on; "
                    + "--no-tern-snapshot runs the repository's launcher, which rebuilds whenever any source changes)")
    boolean ternSnapshot;

    @Option(
            names = "--tern-build-timeout-ms",
            defaultValue = "900000",
            description = "bound on the launcher's own build before the snapshot is taken")
    long ternBuildTimeoutMs;

    @Option(names = "--turnserver", defaultValue = "/usr/bin/turnserver")
    String turnserver;

    @Option(names = "--ready-timeout-ms", defaultValue = "30000")
    long readyTimeoutMs;

    @Option(names = "--summarize", description = "only rebuild the .md and .png from this JSONL file")
    Path summarize;

    private final List<String> notes = new ArrayList<>();
    private final Set<String> warnedComm = new LinkedHashSet<>();

    @Override
    public Integer call() throws Exception {
        repoRoot = repoRoot.toAbsolutePath().normalize();
        if (summarize != null) {
            String stem = summarize.getFileName().toString().replaceFirst("\\.jsonl$", "");
            Path md = summarize.resolveSibling(stem + ".md");
            // The rows hold the runs, not where and how they were made: keep the earlier report's
            // preamble and notes, so that rebuilding it (say, after a new section) loses neither.
            List<String> preamble = new ArrayList<>();
            if (Files.exists(md)) {
                String previous = Files.readString(md);
                preamble.addAll(Summary.previousPreamble(previous));
                notes.addAll(Summary.previousNotes(previous));
            }
            preamble.add(Summary.REBUILT_STAMP + "`" + summarize.getFileName() + "` on " + LocalDate.now()
                    + " (`bench/run --summarize`)");
            writeReports(summarize, md, summarize.resolveSibling(stem + ".png"), preamble);
            return 0;
        }
        applyDefaults();
        Path dir = out != null ? out : repoRoot.resolve("bench/results");
        String stem = name != null ? name : LocalDate.now() + "-" + Host.hostName() + (quick ? "-quick" : "");
        Path jsonl = dir.resolve(stem + ".jsonl");
        Path tmp = repoRoot.resolve("bench/results/tmp").resolve(stem);
        Files.createDirectories(dir);
        Files.createDirectories(tmp);
        List<ServerKind> kinds = serverKinds(tmp);
        if (kinds.isEmpty()) {
            return 2;
        }
        Path cert = tmp.resolve("cert.pem");
        Path key = tmp.resolve("key.pem");
        if (transports.contains("tls")) {
            selfSignedCertificate(cert, key);
        }
        String secret =
                HexFormat.of().formatHex(SecureRandom.getInstanceStrong().generateSeed(16));
        String realm = "tern.bench";
        List<Cell> cells = cells();
        List<Matrix.Run<Cell, ServerKind>> plan = Matrix.alternating(cells, repeats, kinds);
        int totalRuns = plan.size();
        String loadBefore = Host.loadavg();
        long startNs = System.nanoTime();
        int run = 0;
        Set<String> skipped = new LinkedHashSet<>();
        primeGenerator(kinds, cells, secret, realm, tmp, cert, key);
        try (JsonlLog w = JsonlLog.create(jsonl)) {
            for (Matrix.Run<Cell, ServerKind> planned : plan) {
                Cell cell = planned.cell();
                int rep = planned.repeat();
                ServerKind kind = planned.entrant();
                run++;
                if (!kind.supports(cell.transport())) {
                    if (skipped.add(kind.name() + " " + cell.transport().label())) {
                        notes.add("skipped: " + kind.name() + " over "
                                + cell.transport().label() + " (not supported by this configuration)");
                    }
                    continue;
                }
                Path runDir = tmp.resolve(String.format(Locale.ROOT, "run-%04d-%s", run, kind.name()));
                Files.createDirectories(runDir);
                String prefix = String.format(
                        Locale.ROOT, "[%d/%d] %-6s %-24s rep %d: ", run, totalRuns, kind.name(), cell.label(), rep);
                try {
                    RunResult r = runOne(kind, cell, rep, secret, realm, runDir, cert, key);
                    w.append(r.toJson());
                    System.err.printf(
                            Locale.ROOT,
                            "%s%,.0f pkt/s p50 %.0f µs p99 %.0f µs server CPU %.0f%% gen CPU %.0f%%%s loss %d%n",
                            prefix,
                            r.packetsPerSecond(),
                            r.roundTripP50Us(),
                            r.roundTripP99Us(),
                            r.serverCpuPercent(),
                            r.generatorCpuPercent(),
                            r.generatorSaturated() ? " (GENERATOR SATURATED)" : "",
                            r.lossOrCorruption());
                } catch (Exception e) {
                    String msg = "failed: " + kind.name() + " " + cell.label() + " rep " + rep + ": " + e;
                    notes.add(msg);
                    System.err.println(prefix + msg);
                }
            }
        }
        double minutes = (System.nanoTime() - startNs) / 60e9;
        List<String> preamble = new ArrayList<>(
                Preamble.of(loadBefore, minutes, totalRuns, "bench/run " + String.join(" ", commandLine)));
        preamble.addAll(List.of(
                "- method: TURN ChannelData in both directions over loopback, closed loop; "
                        + (window != null
                                ? "window " + window + " per load worker"
                                : "8 packets in flight for one client, 32 for more, divided among the load workers "
                                        + "(w x lw in the cell key)")
                        + "; each measured phase >= " + roundTrips + " round trips and >= " + minSeconds
                        + " s after an uncounted warm-up of >= " + warmupRoundTrips + " round trips and >= "
                        + warmupSeconds
                        + " s (which keeps the JVM's JIT compilation of the relay path out of the measurement); a fresh server process "
                        + "per run, servers alternating within each cell; " + repeats + " repeats. Server CPU and "
                        + "`total_workload_wall_seconds` cover allocation setup plus the measured phase (not the warm-up); "
                        + "RSS is VmRSS from /proc (kernel socket memory excluded), peak sampled every 50 ms. "
                        + "The load generator runs on the same machine and its CPU is reported; on a small machine it "
                        + "competes with the server for cores."
                        + (connectedUdp
                                ? " UDP client sockets were connect(2)ed to the server (--connected-udp)."
                                : ""),
                "- raw results: `" + jsonl.getFileName() + "`"));
        writeReports(jsonl, dir.resolve(stem + ".md"), dir.resolve(stem + ".png"), preamble);
        System.err.printf(Locale.ROOT, "wrote %s, %s.md, %s.png in %.1f min%n", jsonl, stem, stem, minutes);
        return 0;
    }

    private List<String> commandLine = List.of();

    /**
     * One unrecorded run before the matrix, so that the first recorded run (of whichever server
     * comes first) does not pay for the generator's JIT compilation and buffer-pool growth.
     */
    private void primeGenerator(
            List<ServerKind> kinds, List<Cell> cells, String secret, String realm, Path tmp, Path cert, Path key) {
        for (Cell cell : cells) {
            for (ServerKind kind : kinds) {
                if (!kind.supports(cell.transport())) {
                    continue;
                }
                try {
                    Path runDir = tmp.resolve("priming-" + kind.name());
                    Files.createDirectories(runDir);
                    runOne(kind, cell, 0, secret, realm, runDir, cert, key);
                    notes.add("one unrecorded priming run (" + kind.name() + ", " + cell.label()
                            + ") warmed the generator's JIT before the first recorded run");
                } catch (Exception e) {
                    notes.add("priming run failed (" + kind.name() + ", " + cell.label() + "): " + e);
                }
                return;
            }
        }
    }

    private void writeReports(Path jsonl, Path md, Path png, List<String> preamble) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : JsonlLog.lines(jsonl)) {
            rows.add(Json.parseObject(line));
        }
        String title = "Tern vs coturn relay benchmark: " + jsonl.getFileName();
        Files.writeString(
                md,
                Summary.markdown(title, preamble, rows, notes) + "\n![packets/s and p99 per cell](" + png.getFileName()
                        + ")\n");
        Chart.write(Summary.medians(rows), title, png);
    }

    private void applyDefaults() {
        if (quick) {
            clients = or(clients, List.of(1, 16));
            payloads = or(payloads, List.of(1200));
            transports = or(transports, List.of("udp", "tcp"));
            relayThreads = or(relayThreads, List.of(1));
            repeats = repeats != null ? repeats : 3;
            roundTrips = roundTrips != null ? roundTrips : 50_000L;
            minSeconds = minSeconds != null ? minSeconds : 1.0;
            warmupRoundTrips = warmupRoundTrips != null ? warmupRoundTrips : 10_000L;
            warmupSeconds = warmupSeconds != null ? warmupSeconds : 3.0;
        } else {
            clients = or(clients, List.of(1, 16, 128));
            payloads = or(payloads, List.of(160, 1200));
            transports = or(transports, List.of("udp", "tcp", "tls"));
            relayThreads = or(relayThreads, List.of(1, 2));
            repeats = repeats != null ? repeats : 3;
            roundTrips = roundTrips != null ? roundTrips : 200_000L;
            minSeconds = minSeconds != null ? minSeconds : 2.0;
            warmupRoundTrips = warmupRoundTrips != null ? warmupRoundTrips : 20_000L;
            warmupSeconds = warmupSeconds != null ? warmupSeconds : 5.0;
        }
        transports =
                transports.stream().map(s -> s.trim().toLowerCase(Locale.ROOT)).toList();
    }

    private static <T> List<T> or(List<T> given, List<T> fallback) {
        return given != null && !given.isEmpty() ? given : fallback;
    }

    List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (String t : transports) {
            for (int rt : relayThreads) {
                for (int c : clients) {
                    if (rt > 1 && c == 1) {
                        continue; // one allocation is served by one relay thread in both servers
                    }
                    for (int p : payloads) {
                        int lw = loadWorkers > 0 ? Math.min(loadWorkers, c) : LoadConfig.defaultWorkers(c);
                        int w = window != null ? window : Math.max(1, LoadConfig.defaultInFlight(c) / lw);
                        cells.add(new Cell(Transport.parse(t), c, p, rt, lw, w));
                    }
                }
            }
        }
        return cells;
    }

    private List<ServerKind> serverKinds(Path tmp) throws IOException, InterruptedException {
        List<ServerKind> kinds = new ArrayList<>();
        for (String s : servers) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "coturn" -> {
                    if (!Files.isExecutable(Path.of(turnserver))) {
                        System.err.println("bench/run: coturn requested but " + turnserver + " is not executable");
                        return List.of();
                    }
                    kinds.add(new Coturn(turnserver));
                }
                case Forwarder.NAME -> kinds.add(new Forwarder(NativeBinaries.build(repoRoot, "minifwd")));
                case "tern" -> {
                    List<String> launcher = Arrays.asList(ternCommand.trim().split("\\s+"));
                    Path exe = repoRoot.resolve(launcher.get(0));
                    if (!Files.isExecutable(exe)) {
                        System.err.println("bench/run: Tern's launcher " + exe + " does not exist yet; "
                                + "run coturn alone with --servers coturn, or pass --tern-command");
                        return List.of();
                    }
                    Set<Transport> ts = EnumSet.noneOf(Transport.class);
                    ternTransports.forEach(t -> ts.add(Transport.parse(t)));
                    String build = "repository launcher (no snapshot)";
                    List<String> command = launcher;
                    if (ternSnapshot) {
                        System.err.println("bench/run: letting " + exe + " build if it needs to, then freezing a copy");
                        TernSnapshot snap = TernSnapshot.create(
                                repoRoot,
                                exe,
                                tmp.resolve("tern-snapshot"),
                                ternBuildTimeoutMs,
                                tmp.resolve("tern-build.log"));
                        command = new ArrayList<>(launcher);
                        command.set(0, snap.launcher().toString());
                        build = snap.description();
                        notes.add("Tern ran from a snapshot of its build taken before the first run (" + build
                                + "); the repository's launcher rebuilds whenever any source file changes");
                    }
                    List<String> dirty = TernSnapshot.uncommittedMainSources(repoRoot);
                    if (!dirty.isEmpty()) {
                        notes.add("warning: Tern was built from a working tree with uncommitted main sources: "
                                + String.join(", ", dirty));
                    }
                    kinds.add(new Tern(
                            command,
                            repoRoot,
                            ts,
                            build + (dirty.isEmpty() ? "" : ", uncommitted changes"),
                            ternUdpIo));
                }
                default -> {
                    System.err.println("bench/run: unknown server " + s);
                    return List.of();
                }
            }
        }
        return kinds;
    }

    private RunResult runOne(
            ServerKind kind, Cell cell, int rep, String secret, String realm, Path runDir, Path cert, Path key)
            throws Exception {
        int port = FreePorts.between(34000, 34999);
        int tlsPort = FreePorts.between(35000, 35999);
        ServerKind.Settings s = new ServerKind.Settings(
                cell, port, tlsPort, MIN_RELAY_PORT, MAX_RELAY_PORT, secret, realm, runDir, cert, key);
        List<String> cmd = kind.command(s);
        Files.writeString(runDir.resolve("command.txt"), String.join(" ", cmd) + "\n");
        String version = kind.version();
        System.gc();
        try (ServerProcess server = RelayReadiness.start(
                cmd, repoRoot, runDir.resolve("stdout.log"), cell.transport(), s.clientPort(), readyTimeoutMs)) {
            LoadConfig c = new LoadConfig(
                    new InetSocketAddress("127.0.0.1", s.clientPort()),
                    cell.transport(),
                    cell.clients(),
                    cell.loadWorkers(),
                    cell.payloadBytes(),
                    cell.window(),
                    roundTrips,
                    minSeconds,
                    maxSeconds,
                    warmupRoundTrips,
                    warmupSeconds,
                    lossTimeoutMs,
                    secret,
                    realm,
                    "bench",
                    server.pid(),
                    kind.name(),
                    version,
                    cell.relayThreads(),
                    rep,
                    connectedUdp,
                    nativeGenerator(cell.transport()),
                    !kind.authenticates());
            String comm = io.tern.bench.harness.sample.ProcStats.comm(server.pid());
            if (kind instanceof Tern && !comm.equals("java") && warnedComm.add(comm)) {
                notes.add("warning: Tern's measured PID " + server.pid() + " is '" + comm
                        + "', not 'java'; its /proc figures may not be the JVM's");
            }
            LoadGenerator g = new LoadGenerator(c);
            RunResult r = g.run();
            Files.writeString(
                    runDir.resolve("counters.txt"),
                    g.diagnostics() + "\nserver pid " + server.pid() + " comm "
                            + io.tern.bench.harness.sample.ProcStats.comm(server.pid()) + "\n");
            return r;
        }
    }

    /** turnload for UDP and TCP cells with {@code --generator c}; null (the Java generator) otherwise. */
    private Path nativeGenerator(Transport transport) throws IOException, InterruptedException {
        if (!generator.equals("c") || transport == Transport.TLS) {
            return null;
        }
        return NativeBinaries.build(repoRoot, "turnload");
    }

    private static void selfSignedCertificate(Path cert, Path key) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "ec",
                        "-pkeyopt",
                        "ec_paramgen_curve:prime256v1",
                        "-nodes",
                        "-keyout",
                        key.toString(),
                        "-out",
                        cert.toString(),
                        "-days",
                        "2",
                        "-subj",
                        "/CN=localhost")
                .redirectErrorStream(true)
                .redirectOutput(cert.resolveSibling("openssl.log").toFile())
                .start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("openssl failed to create a self-signed certificate");
        }
    }

    public static void main(String[] args) {
        RunnerMain m = new RunnerMain();
        m.commandLine = List.of(args);
        System.exit(new CommandLine(m).execute(args));
    }

    static String elapsed(Duration d) {
        return String.format(Locale.ROOT, "%d:%02d", d.toMinutes(), d.toSecondsPart());
    }
}
