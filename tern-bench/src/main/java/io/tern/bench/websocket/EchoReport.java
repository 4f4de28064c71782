package io.tern.bench.websocket;

import io.tern.bench.harness.sample.Host;
import io.tern.bench.websocket.EchoBenchmark.LatencyRow;
import io.tern.bench.websocket.EchoBenchmark.ThroughputRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The echo benchmark's Markdown and JSON: round trips per case and server, throughput per run and
 * its medians, and Tern's ratios to each other server, which a shared machine moves far less than
 * the absolute figures (the servers alternate, so they share its noise).
 */
record EchoReport(
        List<String> servers,
        int rounds,
        int throughputSeconds,
        List<LatencyRow> latency,
        List<ThroughputRow> throughput) {

    void write(Path dir, String loadBefore, String loadAfter, double minutes) throws IOException {
        Files.createDirectories(dir);
        String stamp = EchoBenchmark.stamp();
        String md = markdown(loadBefore, loadAfter, minutes);
        Files.writeString(dir.resolve("echo-" + stamp + ".md"), md);
        Files.writeString(dir.resolve("echo-" + stamp + ".json"), json(loadBefore, loadAfter));
        System.out.print(md);
    }

    String markdown(String loadBefore, String loadAfter, double minutes) {
        StringBuilder md =
                new StringBuilder("# Echo benchmark ").append(Instant.now()).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %d cores (%s), %s %s, client and server on loopback, load average (1, 5, 15 min) %s before, "
                        + "%s after, %.1f min. Round trip in microseconds over %d rounds of %d sequential echoes per "
                        + "case and server (servers alternating case by case, their order rotated each round), after "
                        + "5000 warm-up echoes.\n\n",
                Runtime.getRuntime().availableProcessors(),
                Host.cpuModel(),
                System.getProperty("java.vm.name"),
                System.getProperty("java.version"),
                loadBefore,
                loadAfter,
                minutes,
                rounds,
                EchoBenchmark.ECHOES));
        md.append("| Case | Data | Payload |");
        servers.forEach(s -> md.append(" ").append(s).append(" mean | p50 | p99 |"));
        md.append("\n|---|---|---|")
                .append("---|---|---|".repeat(servers.size()))
                .append('\n');
        for (LatencyRow first : rowsOf(servers.getFirst())) {
            md.append("| ")
                    .append(first.caseId())
                    .append(" | ")
                    .append(first.text() ? "text" : "binary")
                    .append(" | ")
                    .append(first.payloadBytes())
                    .append(" B");
            for (String server : servers) {
                LatencyRow r = row(server, first.caseId());
                md.append(String.format(Locale.ROOT, " | %.1f | %.1f | %.1f", r.meanUs(), r.p50Us(), r.p99Us()));
            }
            md.append(" |\n");
        }
        latencyRatios(md);
        md.append(String.format(
                Locale.ROOT,
                "%nThroughput: %d connections, %d pipelined 1 KiB binary messages each, %d s per run, servers "
                        + "alternating run by run.%n%n",
                32,
                16,
                throughputSeconds));
        md.append("| Run | Server | messages/s | server CPU-s | messages per server CPU-second | load average |\n")
                .append("|---|---|---|---|---|---|\n");
        for (ThroughputRow r : throughput) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %.0f | %.2f | %.0f | %s |%n",
                    r.round(),
                    r.server(),
                    r.messagesPerSecond(),
                    r.serverCpuSeconds(),
                    r.messagesPerCpuSecond(),
                    r.loadAverage()));
        }
        md.append("\n| Server | median messages/s | median messages per server CPU-second |\n|---|---|---|\n");
        for (String server : servers) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.0f | %.0f |%n",
                    server,
                    median(server, ThroughputRow::messagesPerSecond),
                    median(server, ThroughputRow::messagesPerCpuSecond)));
        }
        throughputRatios(md);
        return md.toString();
    }

    /**
     * Tern's round trip over each other server's, case by case, at the median and the mean, and their
     * geometric means (below 1: Tern is faster). The median is the steadier of the two on a shared
     * machine: a descheduled echo moves the mean of 1000 by milliseconds.
     */
    private void latencyRatios(StringBuilder md) {
        if (!servers.contains("tern") || servers.size() < 2) {
            return;
        }
        List<String> others = servers.stream().filter(s -> !s.equals("tern")).toList();
        md.append("\nTern's round trip ÷ the other server's (below 1: Tern is faster):\n\n| Case |");
        others.forEach(o -> md.append(" p50 tern ÷ ")
                .append(o)
                .append(" | mean tern ÷ ")
                .append(o)
                .append(" |"));
        md.append("\n|---|").append("---|---|".repeat(others.size())).append('\n');
        double[] logSums = new double[2 * others.size()];
        List<LatencyRow> tern = rowsOf("tern");
        for (LatencyRow t : tern) {
            md.append("| ")
                    .append(t.caseId())
                    .append(' ')
                    .append(t.payloadBytes())
                    .append(" B");
            for (int i = 0; i < others.size(); i++) {
                LatencyRow other = row(others.get(i), t.caseId());
                double p50 = t.p50Us() / other.p50Us();
                double mean = t.meanUs() / other.meanUs();
                logSums[2 * i] += Math.log(p50);
                logSums[2 * i + 1] += Math.log(mean);
                md.append(String.format(Locale.ROOT, " | %.2f | %.2f", p50, mean));
            }
            md.append(" |\n");
        }
        md.append("| geometric mean");
        for (double logSum : logSums) {
            md.append(String.format(Locale.ROOT, " | **%.2f**", Math.exp(logSum / tern.size())));
        }
        md.append(" |\n");
    }

    /** Tern's median throughput and efficiency over each other server's (above 1: Tern does more). */
    private void throughputRatios(StringBuilder md) {
        if (!servers.contains("tern") || servers.size() < 2) {
            return;
        }
        md.append("\n| Tern ÷ | messages/s | messages per server CPU-second |\n|---|---|---|\n");
        for (String other : servers) {
            if (other.equals("tern")) {
                continue;
            }
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.2f | %.2f |%n",
                    other,
                    median("tern", ThroughputRow::messagesPerSecond) / median(other, ThroughputRow::messagesPerSecond),
                    median("tern", ThroughputRow::messagesPerCpuSecond)
                            / median(other, ThroughputRow::messagesPerCpuSecond)));
        }
    }

    String json(String loadBefore, String loadAfter) {
        StringBuilder json = new StringBuilder("{\n")
                .append(String.format(
                        Locale.ROOT,
                        "  \"loadAverageBefore\": \"%s\", \"loadAverageAfter\": \"%s\", \"rounds\": %d,%n",
                        loadBefore,
                        loadAfter,
                        rounds))
                .append("  \"latency\": [\n");
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
            json.append(String.format(
                    Locale.ROOT,
                    "    {\"server\": \"%s\", \"round\": %d, \"messagesPerSecond\": %.0f, \"serverCpuSeconds\": %.2f, \"messagesPerCpuSecond\": %.0f, \"loadAverage\": \"%s\"}%s%n",
                    r.server(),
                    r.round(),
                    r.messagesPerSecond(),
                    r.serverCpuSeconds(),
                    r.messagesPerCpuSecond(),
                    r.loadAverage(),
                    i + 1 < throughput.size() ? "," : ""));
        }
        return json.append("  ]\n}\n").toString();
    }

    private List<LatencyRow> rowsOf(String server) {
        return latency.stream().filter(r -> r.server().equals(server)).toList();
    }

    private LatencyRow row(String server, String caseId) {
        return latency.stream()
                .filter(r -> r.server().equals(server) && r.caseId().equals(caseId))
                .findFirst()
                .orElseThrow();
    }

    private double median(String server, ToDoubleFunction<ThroughputRow> metric) {
        double[] values = throughput.stream()
                .filter(r -> r.server().equals(server))
                .mapToDouble(metric)
                .sorted()
                .toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }
}
