package io.tern.bench.runner;

import io.tern.bench.harness.report.PreviousReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Per-cell medians and Tern/coturn ratios from result rows (as read back from the JSONL file). */
public final class Summary {
    public static final String TERN = "tern";
    public static final String COTURN = "coturn";
    public static final String FORWARDER = "minifwd";
    static final String NOTES_HEADING = "## Notes, skipped cells and failures";
    /** The preamble line a rebuilt report gets; {@link #previousPreamble} leaves earlier ones out. */
    public static final String REBUILT_STAMP = PreviousReport.REBUILT_STAMP;

    /** Median of one server in one cell. */
    public record Medians(
            String server,
            int runs,
            double packetsPerSecond,
            double p50Us,
            double p99Us,
            double cpuUsPerPacket,
            double kernelUsPerPacket,
            double userUsPerPacket,
            double setupCpuMs,
            double loadedRssBytes,
            double peakRssBytes,
            double udpSockets,
            double generatorCpuPercent,
            int saturatedRuns,
            long lossOrCorruption,
            String version,
            String generator) {}

    /**
     * Ratios Tern/coturn; for packets/s higher is better, for the others lower is better. CPU per
     * packet is split into its kernel part (stime) and the rest, the server's own code (utime).
     * {@code kernelFloor} is Tern's kernel time over coturn's whole CPU per packet: the CPU ratio
     * Tern would reach if its own code cost nothing, with the kernel work it does now.
     */
    public record Ratios(
            double packetsPerSecond,
            double p99,
            double cpuPerPacket,
            double kernelPerPacket,
            double userPerPacket,
            double kernelFloor,
            double loadedRss) {}

    private Summary() {}

    public static double median(List<Double> values) {
        List<Double> v =
                values.stream().filter(d -> d != null && !d.isNaN()).sorted().toList();
        if (v.isEmpty()) {
            return Double.NaN;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /** {@code numerator / denominator}, NaN if either is missing or the denominator is not positive. */
    public static double ratio(double numerator, double denominator) {
        if (Double.isNaN(numerator) || Double.isNaN(denominator) || denominator <= 0 || numerator < 0) {
            return Double.NaN;
        }
        return numerator / denominator;
    }

    public static Ratios ratios(Medians tern, Medians coturn) {
        return new Ratios(
                ratio(tern.packetsPerSecond(), coturn.packetsPerSecond()),
                ratio(tern.p99Us(), coturn.p99Us()),
                ratio(tern.cpuUsPerPacket(), coturn.cpuUsPerPacket()),
                ratio(tern.kernelUsPerPacket(), coturn.kernelUsPerPacket()),
                ratio(tern.userUsPerPacket(), coturn.userUsPerPacket()),
                ratio(tern.kernelUsPerPacket(), coturn.cpuUsPerPacket()),
                ratio(tern.loadedRssBytes(), coturn.loadedRssBytes()));
    }

    static String cellKey(Map<String, Object> r) {
        return String.format(
                Locale.ROOT,
                "%s c=%d p=%d rt=%d w=%d lw=%d",
                r.get("transport"),
                num(r, "clients").intValue(),
                num(r, "payload_bytes").intValue(),
                num(r, "relay_threads").intValue(),
                num(r, "window").intValue(),
                num(r, "load_workers").intValue());
    }

    private static Number num(Map<String, Object> r, String field) {
        Object o = r.get(field);
        return o instanceof Number n ? n : Double.NaN;
    }

    private static double d(Map<String, Object> r, String field) {
        return num(r, field).doubleValue();
    }

    /** Groups rows by cell (in a stable order: transport, relay threads, clients, payload) and server. */
    public static Map<String, Map<String, Medians>> medians(List<Map<String, Object>> rows) {
        Comparator<Map<String, Object>> order = Comparator.comparing(
                        (Map<String, Object> r) -> String.valueOf(r.get("transport")))
                .thenComparingDouble(r -> d(r, "relay_threads"))
                .thenComparingDouble(r -> d(r, "clients"))
                .thenComparingDouble(r -> d(r, "payload_bytes"));
        List<Map<String, Object>> sorted = new ArrayList<>(rows);
        sorted.sort(order);
        Map<String, Map<String, List<Map<String, Object>>>> groups = new LinkedHashMap<>();
        for (Map<String, Object> r : sorted) {
            groups.computeIfAbsent(cellKey(r), k -> new TreeMap<>())
                    .computeIfAbsent(String.valueOf(r.get("server")), k -> new ArrayList<>())
                    .add(r);
        }
        Map<String, Map<String, Medians>> out = new LinkedHashMap<>();
        groups.forEach((cell, byServer) -> {
            Map<String, Medians> m = new TreeMap<>();
            byServer.forEach((server, rs) -> m.put(server, of(server, rs)));
            out.put(cell, m);
        });
        return out;
    }

    static Medians of(String server, List<Map<String, Object>> rs) {
        List<Double> cpuPerPacket =
                rs.stream().map(r -> perPacketUs(r, d(r, "server_cpu_seconds"))).toList();
        // Rows written before the split was recorded have no system time: NaN, shown as "–".
        List<Double> kernelPerPacket = rs.stream()
                .map(r -> perPacketUs(r, d(r, "server_system_cpu_seconds")))
                .toList();
        List<Double> userPerPacket = rs.stream()
                .map(r -> perPacketUs(r, d(r, "server_cpu_seconds") - d(r, "server_system_cpu_seconds")))
                .toList();
        return new Medians(
                server,
                rs.size(),
                median(rs.stream().map(r -> d(r, "packets_per_second")).toList()),
                median(rs.stream().map(r -> d(r, "round_trip_p50_us")).toList()),
                median(rs.stream().map(r -> d(r, "round_trip_p99_us")).toList()),
                median(cpuPerPacket),
                median(kernelPerPacket),
                median(userPerPacket),
                median(rs.stream()
                        .map(r -> d(r, "server_setup_cpu_seconds") * 1000)
                        .filter(ms -> ms >= 0)
                        .toList()),
                median(rs.stream().map(r -> d(r, "loaded_rss_bytes")).toList()),
                median(rs.stream().map(r -> d(r, "peak_sampled_rss_bytes")).toList()),
                median(rs.stream().map(r -> d(r, "loaded_udp_sockets")).toList()),
                median(rs.stream().map(r -> d(r, "generator_cpu_percent")).toList()),
                (int) rs.stream()
                        .filter(r -> Boolean.TRUE.equals(r.get("generator_saturated")))
                        .count(),
                rs.stream()
                        .mapToLong(r -> num(r, "loss_or_corruption").longValue())
                        .sum(),
                String.valueOf(rs.get(0).get("server_version")),
                rs.stream()
                        .map(r -> String.valueOf(r.getOrDefault("generator", "java")))
                        .distinct()
                        .reduce((a, b) -> a + "+" + b)
                        .orElse("java"));
    }

    private static double perPacketUs(Map<String, Object> r, double cpuSeconds) {
        double packets = d(r, "delivered_forwarded_packets");
        return cpuSeconds >= 0 && packets > 0 ? cpuSeconds * 1e6 / packets : Double.NaN;
    }

    /**
     * The Markdown report: medians per cell and server, Tern/coturn ratios where both ran, and issue
     * 16's goals.
     */
    public static String markdown(
            String title, List<String> preamble, List<Map<String, Object>> rows, List<String> notes) {
        Map<String, Map<String, Medians>> cells = medians(rows);
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append("\n\n");
        for (String p : preamble) {
            sb.append(p).append("\n");
        }
        sb.append("\n## Medians per cell\n\n");
        sb.append(
                "Cell key: transport, c = clients, p = payload bytes, rt = relay threads, w = window per load worker, "
                        + "lw = load workers. CPU µs/pkt = server CPU seconds (setup + measured phase) per delivered forwarded packet; "
                        + "kernel µs/pkt = the part of it spent in the kernel (stime: syscalls and the loopback delivery they run); "
                        + "setup CPU ms = the part spent creating the allocations, on a freshly started server. "
                        + "`sat` = runs in which the generator was saturated (its figures then understate the server).\n\n");
        sb.append("| cell | server | runs | packets/s | p50 µs | p99 µs | CPU µs/pkt | kernel µs/pkt | setup CPU ms "
                + "| loaded RSS MiB | peak RSS MiB | UDP sockets | gen CPU % | sat | loss |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        cells.forEach((cell, byServer) -> byServer.values()
                .forEach(m -> sb.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d |\n",
                        cell,
                        m.server(),
                        m.runs(),
                        fmt(m.packetsPerSecond(), 0),
                        fmt(m.p50Us(), 1),
                        fmt(m.p99Us(), 1),
                        fmt(m.cpuUsPerPacket(), 2),
                        fmt(m.kernelUsPerPacket(), 2),
                        fmt(m.setupCpuMs(), 0),
                        fmt(m.loadedRssBytes() / 1048576, 1),
                        fmt(m.peakRssBytes() / 1048576, 1),
                        fmt(m.udpSockets(), 0),
                        fmt(m.generatorCpuPercent(), 0),
                        m.saturatedRuns(),
                        m.lossOrCorruption()))));
        sb.append("\n## Tern / coturn ratios\n\n");
        sb.append("packets/s: above 1 means Tern is faster. p99, CPU per packet, RSS: below 1 means Tern is better. "
                + "CPU/pkt is split into the kernel's part (stime) and the server's own code (user: utime, for Tern "
                + "including its JIT compiler and GC threads). Kernel floor = Tern's kernel time per packet over coturn's "
                + "whole CPU per packet: the CPU/pkt ratio Tern would have if its own code took no time. "
                + "fwd/coturn and Tern/fwd: CPU per packet against the minimal C forwarder (UDP cells). gen = the "
                + "generator of the data phase (c: turnload, java: Netty workers); sat = runs (Tern, coturn) in which "
                + "the generator was saturated, so that packets/s there is the generator's ceiling.\n\n");
        sb.append("| cell | gen | packets/s | p99 | CPU/pkt | kernel/pkt | user/pkt | kernel floor | loaded RSS "
                + "| fwd/coturn CPU | Tern/fwd CPU | sat |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        int[] compared = {0};
        cells.forEach((cell, byServer) -> {
            Medians t = byServer.get(TERN);
            Medians c = byServer.get(COTURN);
            Medians f = byServer.get(FORWARDER);
            if (t != null && c != null) {
                Ratios r = ratios(t, c);
                compared[0]++;
                sb.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d, %d |\n",
                        cell,
                        t.generator(),
                        fmt(r.packetsPerSecond(), 2),
                        fmt(r.p99(), 2),
                        fmt(r.cpuPerPacket(), 2),
                        fmt(r.kernelPerPacket(), 2),
                        fmt(r.userPerPacket(), 2),
                        fmt(r.kernelFloor(), 2),
                        fmt(r.loadedRss(), 2),
                        f == null ? "–" : fmt(ratio(f.cpuUsPerPacket(), c.cpuUsPerPacket()), 2),
                        f == null ? "–" : fmt(ratio(t.cpuUsPerPacket(), f.cpuUsPerPacket()), 2),
                        t.saturatedRuns(),
                        c.saturatedRuns()));
            }
        });
        if (compared[0] == 0) {
            sb.append("| (no cell has both servers yet) | | | | | | | | | | | |\n");
        }
        sb.append("\n## Goals (issue 16), cell by cell\n\n");
        sb.append("Ratios of medians, as above; each goal is checked in every cell of this run that can measure "
                + "it, and holds only if it holds in all of them.\n\n");
        sb.append(RelayGoals.table(cells));
        Map<String, String> versions = new TreeMap<>();
        cells.values().forEach(byServer -> byServer.values().forEach(m -> versions.put(m.server(), m.version())));
        sb.append("\n## Servers\n\n");
        versions.forEach(
                (s, v) -> sb.append("- ").append(s).append(": ").append(v).append("\n"));
        if (!notes.isEmpty()) {
            sb.append("\n").append(NOTES_HEADING).append("\n\n");
            for (String n : notes) {
                sb.append("- ").append(n).append("\n");
            }
        }
        return sb.toString();
    }

    /** The preamble of the report a rebuild replaces (see {@link PreviousReport#preamble}). */
    public static List<String> previousPreamble(String markdown) {
        return PreviousReport.preamble(markdown);
    }

    /** The items of an earlier report's notes section (skipped cells, priming runs, failures). */
    public static List<String> previousNotes(String markdown) {
        return PreviousReport.notes(markdown, NOTES_HEADING);
    }

    static String fmt(double v, int places) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%." + places + "f", v);
    }
}
