package io.tern.netty.websocket.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Autobahn 9.7.x/9.8.x reproduced as a benchmark: 1000 sequential echoes per case at payloads 0..4096
 * bytes, text and binary, against Tern, Netty's own WebSocket codec and Jetty 12 (each in its own JVM,
 * measured in interleaved rounds); then a throughput run of many connections with pipelined 1 KiB
 * messages, reported as messages per second and per server CPU-second (read from /proc).
 * Args: [resultsDir] (default bench/results) [--rounds N] (default 5; 1 makes a quick check that
 * the benchmark runs, not a result).
 */
public final class EchoLatencyBenchmark {
    private static final int[] PAYLOAD_BYTES = {0, 16, 64, 256, 1024, 4096};
    private static final int ECHOES = 1000;
    private static final int WARMUP_ECHOES = 5000;
    private static final int ROUND_WARMUP_ECHOES = 200;
    private static final int DEFAULT_ROUNDS = 5;
    private static final List<String> SERVERS = List.of("tern", "netty", "jetty");
    private static final int CONNECTIONS = 32;
    private static final int PIPELINE_DEPTH = 16;
    private static final long THROUGHPUT_WARMUP_MS = 2000;
    private static final long THROUGHPUT_MS = 5000;
    private static final long CLOCK_TICKS_PER_SECOND = 100;

    private record LatencyRow(
            String server, String caseId, boolean text, int payloadBytes, double meanUs, double p50Us, double p99Us) {}

    private record ThroughputRow(
            String server, double messagesPerSecond, double serverCpuSeconds, double messagesPerCpuSecond) {}

    private EchoLatencyBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path resultsDir = Path.of(args.length > 0 ? args[0] : "bench/results");
        int rounds = args.length > 2 && args[1].equals("--rounds") ? Integer.parseInt(args[2]) : DEFAULT_ROUNDS;
        Map<String, Process> processes = new LinkedHashMap<>();
        Map<String, Integer> ports = new LinkedHashMap<>();
        try {
            for (String server : SERVERS) {
                Process process = new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "-Xms512m",
                                "-Xmx512m",
                                // Agrona's buffers, under Tern's engine, need jdk.internal.misc (as ./tern passes).
                                "--add-exports",
                                "java.base/jdk.internal.misc=ALL-UNNAMED",
                                "-cp",
                                System.getProperty("java.class.path"),
                                BenchEchoServers.class.getName(),
                                server)
                        .redirectErrorStream(true)
                        .start();
                processes.put(server, process);
                ports.put(server, awaitPort(server, process));
            }
            List<LatencyRow> latency = measureLatency(ports, rounds);
            List<ThroughputRow> throughput = new ArrayList<>();
            for (String server : SERVERS) {
                throughput.add(measureThroughput(
                        ports.get(server), processes.get(server).pid(), server));
            }
            write(resultsDir, rounds, latency, throughput);
        } finally {
            for (Process process : processes.values()) {
                process.getOutputStream().close();
                process.destroy();
                process.waitFor();
            }
        }
    }

    private static int awaitPort(String server, Process process) throws IOException {
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = reader.readLine()) != null && !line.startsWith("PORT ")) {
            System.err.println(server + ": " + line);
        }
        if (line == null) {
            throw new IllegalStateException(server + " server did not start");
        }
        // Keep draining so a chatty server never blocks on a full pipe.
        Thread.ofPlatform().daemon().start(() -> reader.lines().forEach(l -> {}));
        return Integer.parseInt(line.substring(5).trim());
    }

    /**
     * Rounds interleave the servers case by case, rotating their order, so load from elsewhere on the
     * host spreads over all three instead of landing on whichever ran at the wrong moment.
     */
    private static List<LatencyRow> measureLatency(Map<String, Integer> ports, int rounds) throws IOException {
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (boolean text : new boolean[] {true, false}) {
                for (int i = 0; i < PAYLOAD_BYTES.length; i++) {
                    byte[] message = new byte[PAYLOAD_BYTES[i]];
                    Arrays.fill(message, (byte) 'x');
                    for (int k = 0; k < SERVERS.size(); k++) {
                        String server = SERVERS.get((round + k) % SERVERS.size());
                        Histogram histogram =
                                histograms.computeIfAbsent(server + "/" + text + "/" + i, key -> new Histogram(3));
                        echoes(
                                ports.get(server),
                                text,
                                message,
                                round == 0 ? WARMUP_ECHOES : ROUND_WARMUP_ECHOES,
                                histogram);
                    }
                }
            }
        }
        List<LatencyRow> rows = new ArrayList<>();
        for (String server : SERVERS) {
            for (boolean text : new boolean[] {true, false}) {
                for (int i = 0; i < PAYLOAD_BYTES.length; i++) {
                    Histogram h = histograms.get(server + "/" + text + "/" + i);
                    rows.add(new LatencyRow(
                            server,
                            (text ? "9.7." : "9.8.") + (i + 1),
                            text,
                            PAYLOAD_BYTES[i],
                            h.getMean() / 1000.0,
                            h.getValueAtPercentile(50) / 1000.0,
                            h.getValueAtPercentile(99) / 1000.0));
                }
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

    private static ThroughputRow measureThroughput(int port, long pid, String server) throws Exception {
        byte[] message = new byte[1024];
        Arrays.fill(message, (byte) 7);
        LongAdder echoes = new LongAdder();
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CONNECTIONS; c++) {
            BlockingEchoClient client = new BlockingEchoClient(port);
            Thread thread = Thread.ofPlatform().start(() -> {
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
            });
            threads.add(thread);
        }
        Thread.sleep(THROUGHPUT_WARMUP_MS);
        long cpuTicksBefore = cpuTicks(pid);
        long startNs = System.nanoTime();
        counting.set(true);
        Thread.sleep(THROUGHPUT_MS);
        counting.set(false);
        long elapsedNs = System.nanoTime() - startNs;
        long cpuTicksAfter = cpuTicks(pid);
        running.set(false);
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = elapsedNs / 1e9;
        double cpuSeconds = (cpuTicksAfter - cpuTicksBefore) / (double) CLOCK_TICKS_PER_SECOND;
        double messages = echoes.sum();
        return new ThroughputRow(server, messages / seconds, cpuSeconds, messages / cpuSeconds);
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    }

    /** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/pid/stat). */
    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static void write(Path dir, int rounds, List<LatencyRow> latency, List<ThroughputRow> throughput)
            throws IOException {
        Files.createDirectories(dir);
        String stamp = Instant.now().toString().replace(":", "").substring(0, 15);
        StringBuilder md = new StringBuilder("# Echo benchmark ")
                .append(Instant.now())
                .append("\n\n")
                .append("Host: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ")
                .append(System.getProperty("java.vm.name"))
                .append(' ')
                .append(System.getProperty("java.version"))
                .append(", client and server on loopback, load average ")
                .append(loadAverage())
                .append(". Round trip in microseconds over ")
                .append(rounds)
                .append(" rounds of ")
                .append(ECHOES)
                .append(" sequential echoes per case and server ")
                .append("(servers interleaved case by case), after ")
                .append(WARMUP_ECHOES)
                .append(" warm-up echoes.\n\n")
                .append(
                        "| Case | Data | Payload | Tern mean | Tern p50 | Tern p99 | Netty mean | Netty p50 | Netty p99 | Jetty mean | Jetty p50 | Jetty p99 |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (LatencyRow tern :
                latency.stream().filter(r -> r.server().equals("tern")).toList()) {
            md.append("| ")
                    .append(tern.caseId())
                    .append(" | ")
                    .append(tern.text() ? "text" : "binary")
                    .append(" | ")
                    .append(tern.payloadBytes())
                    .append(" B");
            for (String server : List.of("tern", "netty", "jetty")) {
                LatencyRow r = latency.stream()
                        .filter(x -> x.server().equals(server) && x.caseId().equals(tern.caseId()))
                        .findFirst()
                        .orElseThrow();
                md.append(String.format(Locale.ROOT, " | %.1f | %.1f | %.1f", r.meanUs(), r.p50Us(), r.p99Us()));
            }
            md.append(" |\n");
        }
        md.append("\nThroughput: ")
                .append(CONNECTIONS)
                .append(" connections, ")
                .append(PIPELINE_DEPTH)
                .append(" pipelined 1 KiB binary messages each, ")
                .append(THROUGHPUT_MS / 1000)
                .append(" s.\n\n")
                .append("| Server | messages/s | server CPU-s | messages per server CPU-second |\n|---|---|---|---|\n");
        StringBuilder json = new StringBuilder("{\n  \"latency\": [\n");
        for (int i = 0; i < latency.size(); i++) {
            LatencyRow r = latency.get(i);
            json.append(String.format(
                    Locale.ROOT,
                    "    {\"server\": \"%s\", \"case\": \"%s\", \"text\": %b, \"payloadBytes\": %d, \"meanUs\": %.2f, \"p50Us\": %.2f, \"p99Us\": %.2f}%s%n",
                    r.server(),
                    r.caseId(),
                    r.text(),
                    r.payloadBytes(),
                    r.meanUs(),
                    r.p50Us(),
                    r.p99Us(),
                    i + 1 < latency.size() ? "," : ""));
        }
        json.append("  ],\n  \"throughput\": [\n");
        for (int i = 0; i < throughput.size(); i++) {
            ThroughputRow r = throughput.get(i);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.0f | %.2f | %.0f |%n",
                    r.server(),
                    r.messagesPerSecond(),
                    r.serverCpuSeconds(),
                    r.messagesPerCpuSecond()));
            json.append(String.format(
                    Locale.ROOT,
                    "    {\"server\": \"%s\", \"messagesPerSecond\": %.0f, \"serverCpuSeconds\": %.2f, \"messagesPerCpuSecond\": %.0f}%s%n",
                    r.server(),
                    r.messagesPerSecond(),
                    r.serverCpuSeconds(),
                    r.messagesPerCpuSecond(),
                    i + 1 < throughput.size() ? "," : ""));
        }
        json.append("  ]\n}\n");
        Files.writeString(dir.resolve("echo-" + stamp + ".md"), md);
        Files.writeString(dir.resolve("echo-" + stamp + ".json"), json);
        System.out.print(md);
    }
}
