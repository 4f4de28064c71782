package io.tern.server.limits;

import io.tern.server.metrics.RelayFixture;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Tern as its own process, with the launcher's memory settings (those of {@code ./tern}), so that
 * its resident memory can be read from {@code /proc} as an operator would see it. Configured by a
 * coturn-format file; stopped with SIGTERM.
 */
final class TernProcess implements AutoCloseable {
    /** The memory flags of {@code ./tern}, chosen as it chooses them (see bench/results/2026-11-30-memory.md for why). */
    private static List<String> launcherFlags() {
        List<String> flags = new ArrayList<>(List.of(
                "-XX:+UseSerialGC",
                "-Xms8m",
                "-Xmn2m",
                "-Xmx512m",
                "-XX:MaxMetaspaceSize=96m",
                "-Xss512k",
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Dio.netty.leakDetection.level=disabled",
                "-Dio.netty.jfr.enabled=false"));
        Runtime.Version version = Runtime.version();
        if (version.feature() > 21 || version.update() >= 1) {
            flags.add("-XX:TrimNativeHeapInterval=1000");
        }
        if (version.feature() >= 23) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (version.feature() >= 25) {
            flags.add("-XX:+UseCompactObjectHeaders");
        }
        return flags;
    }

    private final Process process;
    private final int prometheusPort;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TernProcess(Process process, int prometheusPort) {
        this.process = process;
        this.prometheusPort = prometheusPort;
    }

    /** Starts Tern with these {@code turnserver.conf} lines and waits until it is listening. */
    static TernProcess start(Path dir, List<String> configLines, int prometheusPort) throws Exception {
        Path conf = dir.resolve("turnserver.conf");
        List<String> lines = new ArrayList<>(configLines);
        lines.add("prometheus");
        lines.add("prometheus-port=" + prometheusPort);
        Files.write(conf, lines);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(launcherFlags());
        command.addAll(List.of(
                "-cp", System.getProperty("java.class.path"), "io.tern.server.Main", "turn", "-c", conf.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("MALLOC_ARENA_MAX", "2");
        Process process = builder.start();
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    if (line.startsWith("Tern relay listening")) {
                        ready.offer(line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        if (ready.poll(60, TimeUnit.SECONDS) == null) {
            process.destroyForcibly();
            synchronized (output) {
                throw new IllegalStateException("Tern did not start within 60 s:\n" + output);
            }
        }
        return new TernProcess(process, prometheusPort);
    }

    /** Resident set size now, from /proc/PID/status. */
    long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for " + process.pid());
    }

    Map<String, Double> scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + prometheusPort + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return RelayFixture.parse(response.body());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
