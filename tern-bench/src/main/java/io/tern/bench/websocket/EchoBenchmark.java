package io.tern.bench.websocket;

import io.tern.bench.harness.matrix.Matrix;
import io.tern.bench.harness.sample.Host;
import io.tern.bench.harness.server.ServerProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Autobahn 9.7.x/9.8.x reproduced as a benchmark: 1000 sequential echoes per case at payloads 0..4096
 * bytes, text and binary, against Tern, Netty's own WebSocket codec and Jetty 12, each a server under
 * test in its own JVM; then a throughput phase of many connections with pipelined 1 KiB messages,
 * reported as messages per second and per server CPU-second (from /proc). Both phases alternate the
 * servers ({@link Matrix#rotating}) so that load from elsewhere on the machine spreads over all three.
 */
@Command(
        name = "bench/websocket/run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "WebSocket echo: Tern vs Netty's codec vs Jetty 12 over loopback.")
public final class EchoBenchmark implements Callable<Integer> {
    static final int[] PAYLOAD_BYTES = {0, 16, 64, 256, 1024, 4096};
    static final int ECHOES = 1000;
    private static final int WARMUP_ECHOES = 5000;
    private static final int ROUND_WARMUP_ECHOES = 200;
    private static final int CONNECTIONS = 32;
    private static final int PIPELINE_DEPTH = 16;
    private static final long READY_TIMEOUT_MS = 60_000;

    @Parameters(index = "0", arity = "0..1", description = "results directory (default: ${DEFAULT-VALUE})")
    Path resultsDir = Path.of("bench/results/websocket");

    @Option(names = "--rounds", description = "latency rounds; 1 only checks that it runs (default: ${DEFAULT-VALUE})")
    int rounds = 5;

    @Option(names = "--throughput-rounds", description = "throughput runs per server (default: ${DEFAULT-VALUE})")
    int throughputRounds = 3;

    @Option(
            names = "--throughput-seconds",
            description = "measured seconds per throughput run (default: ${DEFAULT-VALUE})")
    int throughputSeconds = 5;

    @Option(names = "--throughput-warmup-seconds", description = "(default: ${DEFAULT-VALUE})")
    int throughputWarmupSeconds = 2;

    @Option(names = "--servers", split = ",", description = "tern, netty and/or jetty (default: ${DEFAULT-VALUE})")
    List<String> servers = List.of("tern", "netty", "jetty");

    /** One case of the latency phase: Autobahn's 9.7.n (text) or 9.8.n (binary). */
    record Case(boolean text, int index) {
        String id() {
            return (text ? "9.7." : "9.8.") + (index + 1);
        }

        int payloadBytes() {
            return PAYLOAD_BYTES[index];
        }
    }

    record LatencyRow(
            String server, String caseId, boolean text, int payloadBytes, double meanUs, double p50Us, double p99Us) {}

    record ThroughputRow(
            String server,
            int round,
            double messagesPerSecond,
            double serverCpuSeconds,
            double messagesPerCpuSecond,
            String loadAverage) {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new EchoBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path logs = Files.createTempDirectory("tern-echo-bench");
        Map<String, ServerProcess> processes = new LinkedHashMap<>();
        Map<String, Integer> ports = new LinkedHashMap<>();
        String loadBefore = Host.loadAverages();
        long startNs = System.nanoTime();
        try {
            for (String server : servers) {
                Path log = logs.resolve(server + ".log");
                processes.put(
                        server,
                        ServerProcess.start(
                                serverCommand(server),
                                Path.of("."),
                                log,
                                () -> portIn(log) > 0,
                                server + " printing its port",
                                READY_TIMEOUT_MS));
                ports.put(server, portIn(log));
            }
            List<LatencyRow> latency = measureLatency(ports);
            List<ThroughputRow> throughput = new ArrayList<>();
            for (Matrix.Run<String, String> run : Matrix.rotating(List.of("throughput"), throughputRounds, servers)) {
                throughput.add(measureThroughput(processes.get(run.entrant()), ports.get(run.entrant()), run));
                System.err.println(throughput.getLast());
            }
            double minutes = (System.nanoTime() - startNs) / 60e9;
            EchoReport report = new EchoReport(servers, rounds, throughputSeconds, latency, throughput);
            report.write(resultsDir, loadBefore, Host.loadAverages(), minutes);
        } finally {
            for (ServerProcess process : processes.values()) {
                process.close();
            }
        }
        return 0;
    }

    /** The server's own JVM, on this one's classpath; Agrona's buffers under Tern's engine need jdk.internal.misc. */
    private static List<String> serverCommand(String server) {
        return List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m",
                "-Xmx512m",
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                EchoServers.class.getName(),
                server);
    }

    /** The port an echo server printed ("PORT n") into its log, or 0 before it has. */
    static int portIn(Path log) {
        try {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("PORT ")) {
                    return Integer.parseInt(line.substring(5).trim());
                }
            }
        } catch (IOException notYet) {
            // the log is created by the process builder; it may not exist yet
        }
        return 0;
    }

    private List<LatencyRow> measureLatency(Map<String, Integer> ports) throws IOException {
        List<Case> cases = new ArrayList<>();
        for (boolean text : new boolean[] {true, false}) {
            for (int i = 0; i < PAYLOAD_BYTES.length; i++) {
                cases.add(new Case(text, i));
            }
        }
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (Matrix.Run<Case, String> run : Matrix.rotating(cases, rounds, servers)) {
            byte[] message = new byte[run.cell().payloadBytes()];
            Arrays.fill(message, (byte) 'x');
            Histogram histogram =
                    histograms.computeIfAbsent(run.entrant() + "/" + run.cell().id(), key -> new Histogram(3));
            int warmup = run.repeat() == 1 ? WARMUP_ECHOES : ROUND_WARMUP_ECHOES;
            echoes(ports.get(run.entrant()), run.cell().text(), message, warmup, histogram);
        }
        List<LatencyRow> rows = new ArrayList<>();
        for (String server : servers) {
            for (Case c : cases) {
                Histogram h = histograms.get(server + "/" + c.id());
                rows.add(new LatencyRow(
                        server,
                        c.id(),
                        c.text(),
                        c.payloadBytes(),
                        h.getMean() / 1000.0,
                        h.getValueAtPercentile(50) / 1000.0,
                        h.getValueAtPercentile(99) / 1000.0));
            }
        }
        return rows;
    }

    private static void echoes(int port, boolean text, byte[] message, int warmupEchoes, Histogram histogram)
            throws IOException {
        try (BlockingEchoClient client = new BlockingEchoClient(port)) {
            for (int n = 0; n < warmupEchoes + ECHOES; n++) {
                long startNs = System.nanoTime();
                client.send(text, message, 1);
                if (client.receive() != message.length) {
                    throw new IllegalStateException("wrong echo length");
                }
                if (n >= warmupEchoes) {
                    histogram.recordValue(System.nanoTime() - startNs);
                }
            }
        }
    }

    private ThroughputRow measureThroughput(ServerProcess server, int port, Matrix.Run<String, String> run)
            throws Exception {
        byte[] message = new byte[1024];
        Arrays.fill(message, (byte) 7);
        LongAdder echoes = new LongAdder();
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            BlockingEchoClient client = new BlockingEchoClient(port);
            threads.add(Thread.ofPlatform().start(() -> {
                try (client) {
                    while (running.get()) {
                        client.send(false, message, PIPELINE_DEPTH);
                        for (int k = 0; k < PIPELINE_DEPTH; k++) {
                            client.receive();
                        }
                        if (counting.get()) {
                            echoes.add(PIPELINE_DEPTH);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        Thread.sleep(throughputWarmupSeconds * 1000L);
        double cpuBefore = server.cpuSeconds();
        long startNs = System.nanoTime();
        counting.set(true);
        Thread.sleep(throughputSeconds * 1000L);
        counting.set(false);
        long elapsedNs = System.nanoTime() - startNs;
        double cpuSeconds = server.cpuSeconds() - cpuBefore;
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        double messages = echoes.sum();
        return new ThroughputRow(
                run.entrant(),
                run.repeat(),
                messages / (elapsedNs / 1e9),
                cpuSeconds,
                messages / cpuSeconds,
                Host.loadAverages());
    }

    static String stamp() {
        return Instant.now().toString().replace(":", "").substring(0, 15);
    }
}
