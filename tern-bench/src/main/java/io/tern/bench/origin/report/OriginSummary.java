package io.tern.bench.origin.report;

import io.tern.bench.harness.matrix.JsonlLog;
import io.tern.bench.harness.report.PreviousReport;
import io.tern.bench.runner.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Markdown summary of an origin benchmark's JSONL file: medians per cell, Tern/nginx ratios,
 * the goals with the figure behind each, and notes; plus the chart.
 */
public final class OriginSummary {
    public static final String TERN = "tern";
    public static final String NGINX = "nginx";
    public static final String CLASSIC = "classic";
    public static final String LL = "ll";

    private OriginSummary() {}

    public static void write(Path jsonl, Path md, Path png, List<String> preamble, List<String> notes)
            throws IOException {
        List<RunRecord> rows = new ArrayList<>();
        for (String line : JsonlLog.lines(jsonl)) {
            rows.add(RunRecord.parse(line));
        }
        Map<String, CellMedians> cells = cells(finalAttempts(rows));
        String title = "Tern vs nginx-rtmp origin benchmark: " + jsonl.getFileName();
        Files.writeString(
                md,
                markdown(title, preamble, cells, rows, notes, png.getFileName().toString()));
        OriginChart.write(cells, title, png);
    }

    /** The preamble of an existing summary, so that rebuilding it keeps the run's conditions (see {@link PreviousReport}). */
    public static List<String> preambleOf(Path md) throws IOException {
        return PreviousReport.preamble(md);
    }

    /** For each planned run (server, mode, viewers, repeat), its last attempt: disturbed attempts were redone. */
    static List<RunRecord> finalAttempts(List<RunRecord> rows) {
        Map<String, RunRecord> last = new LinkedHashMap<>();
        for (RunRecord r : rows) {
            String key = r.string(Fields.SERVER) + "|" + r.string(Fields.MODE) + "|" + (long) r.number(Fields.VIEWERS)
                    + "|" + (long) r.number(Fields.REPEAT);
            RunRecord prev = last.get(key);
            if (prev == null || r.number(Fields.ATTEMPT) >= prev.number(Fields.ATTEMPT)) {
                last.put(key, r);
            }
        }
        return new ArrayList<>(last.values());
    }

    /** Cells keyed {@code mode|viewers|server}, sorted by mode (classic first), viewers, then server. */
    static Map<String, CellMedians> cells(List<RunRecord> rows) {
        Map<String, List<RunRecord>> groups = new TreeMap<>(Comparator.comparing(OriginSummary::sortKey));
        for (RunRecord r : rows) {
            groups.computeIfAbsent(
                            key(r.string(Fields.MODE), (int) r.number(Fields.VIEWERS), r.string(Fields.SERVER)),
                            k -> new ArrayList<>())
                    .add(r);
        }
        Map<String, CellMedians> out = new LinkedHashMap<>();
        groups.forEach((k, v) -> out.put(k, CellMedians.of(v)));
        return out;
    }

    static String key(String mode, int viewers, String server) {
        return mode + "|" + viewers + "|" + server;
    }

    private static String sortKey(String key) {
        String[] p = key.split("\\|");
        return (p[0].equals(CLASSIC) ? "0" : "1") + String.format(Locale.ROOT, "%08d", Integer.parseInt(p[1])) + p[2];
    }

    static String markdown(
            String title,
            List<String> preamble,
            Map<String, CellMedians> cells,
            List<RunRecord> rows,
            List<String> notes,
            String png) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title).append("\n\n");
        preamble.forEach(l -> sb.append(l).append('\n'));
        sb.append("\n## Medians per cell\n\n");
        sb.append("| mode | viewers | server | runs | requests/s | errors | server µs/request | generator µs/request "
                + "| server CPU % | idle CPU % | peak RSS MiB | PSS MiB | part delay p99 ms (video / all) | segment delay p99 ms "
                + "| release p99 ms | edge s/s | generator limited | disturbed |\n");
        sb.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CellMedians c : cells.values()) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %d | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d |\n",
                    c.mode(),
                    c.viewers(),
                    c.server(),
                    c.runs(),
                    fmt(c.requestsPerSecond(), 0),
                    c.errors(),
                    fmt(c.serverUsPerRequest(), 1),
                    fmt(c.generatorUsPerRequest(), 1),
                    fmt(c.serverCpuPercent(), 1),
                    fmt(c.serverIdleCpuPercent(), 1),
                    fmt(c.peakRssMiB(), 1),
                    fmt(c.pssMiB(), 1),
                    fmt(c.variantPartDelayP99Ms(), 1) + " / " + fmt(c.partDelayP99Ms(), 1),
                    fmt(c.segmentDelayP99Ms(), 1),
                    fmt(c.releaseP99Ms(), 1),
                    fmt(c.edgeAdvance(), 3),
                    c.generatorLimitedRuns(),
                    c.disturbedRuns()));
        }
        sb.append("\n").append(ratioTable(cells));
        sb.append("\n## Goals (issue 14), cell by cell\n\n");
        sb.append(Goals.table(cells));
        sb.append("\n## The generator\n\n");
        sb.append(generatorSection(rows));
        List<String> allNotes = new ArrayList<>(notes);
        allNotes.addAll(runNotes(rows));
        if (!allNotes.isEmpty()) {
            sb.append("\n## Notes\n\n");
            allNotes.forEach(n -> sb.append("- ").append(n).append('\n'));
        }
        sb.append("\n![CPU per request and peak RSS against viewers](")
                .append(png)
                .append(")\n");
        return sb.toString();
    }

    static String ratioTable(Map<String, CellMedians> cells) {
        StringBuilder sb = new StringBuilder("## Tern / nginx, classic viewers\n\n");
        sb.append("Ratios of medians; below 1.0 Tern uses less. A Tern viewer loads two renditions (video and its "
                + "separate audio) where an nginx viewer loads one muxed stream, so it makes about twice the requests "
                + "for the same media: CPU per viewer is the like-for-like figure, CPU per request the issue's. "
                + "Without JIT: Tern's CPU less its JIT compiler threads' in the same window (compilation still under "
                + "way since the server started; nginx has none).\n\n");
        sb.append("| viewers | server CPU per request | the same without JIT | server CPU per viewer | peak RSS | PSS "
                + "| requests/s |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean any = false;
        for (CellMedians t : cells.values()) {
            if (!t.server().equals(TERN) || !t.mode().equals(CLASSIC)) {
                continue;
            }
            CellMedians n = cells.get(key(CLASSIC, t.viewers(), NGINX));
            if (n == null) {
                continue;
            }
            any = true;
            sb.append(String.format(
                    Locale.ROOT,
                    "| %d | %s | %s | %s | %s | %s | %s |\n",
                    t.viewers(),
                    fmt(Summary.ratio(t.serverUsPerRequest(), n.serverUsPerRequest()), 2),
                    fmt(Summary.ratio(t.serverUsPerRequestWithoutJit(), n.serverUsPerRequest()), 2),
                    fmt(Summary.ratio(t.serverUsPerViewerSecond(), n.serverUsPerViewerSecond()), 2),
                    fmt(Summary.ratio(t.peakRssMiB(), n.peakRssMiB()), 2),
                    fmt(Summary.ratio(t.pssMiB(), n.pssMiB()), 2),
                    fmt(Summary.ratio(t.requestsPerSecond(), n.requestsPerSecond()), 2)));
        }
        return any
                ? sb.toString()
                : sb.append("| – | no cell has both servers | | | | | |\n").toString();
    }

    static String generatorSection(List<RunRecord> rows) {
        int limited = 0;
        int costlier = 0;
        List<String> examples = new ArrayList<>();
        for (RunRecord r : rows) {
            String b = r.string(Fields.GENERATOR_BOTTLENECK);
            if (!b.isEmpty()) {
                limited++;
                if (examples.size() < 5) {
                    examples.add(r.string(Fields.SERVER) + " " + r.string(Fields.MODE) + " v="
                            + (long) r.number(Fields.VIEWERS) + ": " + b);
                }
            }
            costlier += r.flag(Fields.GENERATOR_COSTLIER) ? 1 : 0;
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "In %d of %d runs the generator used more CPU per request than the server it measured "
                        + "(`generator_costlier_than_server`); in %d it was the bottleneck (`generator_bottleneck`: "
                        + "its CPU at 90%% or more of what its loop threads can use, or viewer timers more than 50 ms late "
                        + "at p99).%s\n",
                costlier,
                rows.size(),
                limited,
                limited == 0
                        ? " Where it was not, request rates and delays are the server's."
                        : " In those runs request rates, delays and lateness measure the generator, not the server: "
                                + String.join("; ", examples) + "."));
        return sb.toString();
    }

    static List<String> runNotes(List<RunRecord> rows) {
        List<String> out = new ArrayList<>();
        for (RunRecord r : rows) {
            String who = r.string(Fields.SERVER) + " " + r.string(Fields.MODE) + " v=" + (long) r.number(Fields.VIEWERS)
                    + " rep " + (long) r.number(Fields.REPEAT) + " attempt " + (long) r.number(Fields.ATTEMPT);
            if (r.flag(Fields.DISTURBED)) {
                out.add(who + ": disturbed (other processes " + fmt(r.number(Fields.OTHER_CPU_PERCENT), 0)
                        + "% of a CPU; load before " + r.string(Fields.LOAD_BEFORE) + ")");
            }
            if (r.flag(Fields.MACHINE_SATURATED)) {
                out.add(who + ": every CPU was busy (" + fmt(r.number("machine_busy_percent"), 0)
                        + "%): server and generator waited for CPU, so latencies and delays are the machine's");
            }
            if (r.number(Fields.ERRORS) > 0) {
                out.add(who + ": " + (long) r.number(Fields.ERRORS) + " errors: " + r.string(Fields.ERROR_DETAIL));
            }
            if (Boolean.FALSE.equals(r.get("server_and_publisher_alive_after"))) {
                out.add(who + ": the server or the publisher had exited by the end of the run");
            }
        }
        return out;
    }

    /** The console line of one run. */
    public static String oneLine(RunRecord r) {
        return String.format(
                Locale.ROOT,
                "%,.0f req/s, %d errors, server %.1f µs/req (%.0f%% CPU, peak RSS %.1f MiB), generator %.1f µs/req%s, "
                        + "part p99 %s ms, release p99 %s ms, edge %s, other CPU %.0f%%%s",
                r.number(Fields.REQUESTS_PER_SECOND),
                (long) r.number(Fields.ERRORS),
                r.number(Fields.SERVER_CPU_US_PER_REQUEST),
                r.number(Fields.SERVER_CPU_PERCENT),
                r.number(Fields.SERVER_RSS_PEAK_BYTES) / CellMedians.MIB,
                r.number(Fields.GENERATOR_CPU_US_PER_REQUEST),
                r.string(Fields.GENERATOR_BOTTLENECK).isEmpty()
                        ? ""
                        : " (GENERATOR LIMITED: " + r.string(Fields.GENERATOR_BOTTLENECK) + ")",
                fmt(r.number(Fields.PART_DELAY_P99_MS), 1),
                fmt(r.number(Fields.RELEASE_LATENESS_P99_MS), 1),
                fmt(r.number(Fields.EDGE_ADVANCE), 3),
                r.number(Fields.OTHER_CPU_PERCENT),
                r.flag(Fields.MACHINE_SATURATED) ? " (MACHINE SATURATED: every CPU busy)" : "");
    }

    static String fmt(double v, int decimals) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
