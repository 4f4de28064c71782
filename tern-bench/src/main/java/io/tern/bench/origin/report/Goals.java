package io.tern.bench.origin.report;

import io.tern.bench.runner.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Issue 14's goals, each with the figure measured for it, how it is computed, and whether it
 * holds. A goal whose cells were not run is "not measured", never "met".
 */
final class Goals {
    static final double RSS_GOAL_MIB = 64;
    static final double RELEASE_GOAL_MS = 20;
    static final double EDGE_TOLERANCE = 0.02;
    /** "Flat from 50 to 4000": the 4000-viewer peak RSS within this factor of the 50-viewer one. */
    static final double FLAT_FACTOR = 1.25;

    static final String MET = "met";
    static final String MISSED = "**missed**";
    static final String NOT_MEASURED = "not measured";

    record Row(String figure, String goal, String measured, String status, String how) {}

    private Goals() {}

    static String table(Map<String, CellMedians> cells) {
        StringBuilder sb = new StringBuilder("| figure | goal | measured | status | how it is computed |\n");
        sb.append("|---|---|---|---|---|\n");
        for (Row r : rows(cells)) {
            sb.append("| ")
                    .append(r.figure())
                    .append(" | ")
                    .append(r.goal())
                    .append(" | ")
                    .append(r.measured())
                    .append(" | ")
                    .append(r.status())
                    .append(" | ")
                    .append(r.how())
                    .append(" |\n");
        }
        return sb.toString();
    }

    static List<Row> rows(Map<String, CellMedians> cells) {
        List<Row> rows = new ArrayList<>();
        rows.add(classicCpu(cells));
        rows.add(rss750(cells));
        rows.add(rssFlat(cells));
        rows.add(llCpu(cells));
        rows.add(llErrors(cells));
        rows.add(llPartDelay(cells));
        rows.add(llRelease(cells));
        rows.add(edge(cells));
        rows.add(seedRatio(cells));
        return rows;
    }

    private static List<CellMedians> of(Map<String, CellMedians> cells, String server, String mode) {
        return cells.values().stream()
                .filter(c -> c.server().equals(server) && c.mode().equals(mode))
                .toList();
    }

    private static CellMedians at(Map<String, CellMedians> cells, String server, String mode, int viewers) {
        return cells.get(OriginSummary.key(mode, viewers, server));
    }

    static Row classicCpu(Map<String, CellMedians> cells) {
        List<String> parts = new ArrayList<>();
        boolean all = true;
        int n = 0;
        for (CellMedians t : of(cells, OriginSummary.TERN, OriginSummary.CLASSIC)) {
            CellMedians x = at(cells, OriginSummary.NGINX, OriginSummary.CLASSIC, t.viewers());
            if (x == null) {
                continue;
            }
            double r = Summary.ratio(t.serverUsPerRequest(), x.serverUsPerRequest());
            double withoutJit = Summary.ratio(t.serverUsPerRequestWithoutJit(), x.serverUsPerRequest());
            parts.add(t.viewers() + ": " + OriginSummary.fmt(r, 2) + "× ("
                    + OriginSummary.fmt(t.serverUsPerRequest(), 1)
                    + " vs " + OriginSummary.fmt(x.serverUsPerRequest(), 1) + " µs"
                    + (Double.isNaN(withoutJit) ? "" : "; " + OriginSummary.fmt(withoutJit, 2) + "× without JIT")
                    + ")");
            all &= r <= 1.0;
            n++;
        }
        return new Row(
                "CPU per request, classic, Tern vs nginx",
                "≤ 1.0× at every size",
                n == 0 ? "–" : String.join("; ", parts),
                n == 0 ? NOT_MEASURED : all ? MET : MISSED,
                "server CPU (utime+stime of its process tree, /proc) over the measured window ÷ requests answered 200 "
                        + "in it; median of the repeats; ratio Tern/nginx per viewer count; beside it the ratio of CPU per "
                        + "viewer (Tern's viewers make about twice the requests: video and audio apart); \"without JIT\" leaves out "
                        + "Tern's JIT compiler threads' CPU in the window, compilation still under way since start");
    }

    static Row rss750(Map<String, CellMedians> cells) {
        double worst = Double.NaN;
        for (String mode : List.of(OriginSummary.CLASSIC, OriginSummary.LL)) {
            CellMedians t = at(cells, OriginSummary.TERN, mode, 750);
            if (t != null && !Double.isNaN(t.peakRssMiB())) {
                worst = Double.isNaN(worst) ? t.peakRssMiB() : Math.max(worst, t.peakRssMiB());
            }
        }
        CellMedians n = at(cells, OriginSummary.NGINX, OriginSummary.CLASSIC, 750);
        return new Row(
                "Peak RSS, Tern, 750 viewers",
                "≤ 64 MiB",
                OriginSummary.fmt(worst, 1) + " MiB (nginx: " + (n == null ? "–" : OriginSummary.fmt(n.peakRssMiB(), 1))
                        + " MiB)",
                Double.isNaN(worst) ? NOT_MEASURED : worst <= RSS_GOAL_MIB ? MET : MISSED,
                "VmRSS summed over the server's processes, sampled every 100 ms in the window; the higher of the "
                        + "classic and LL cells' medians");
    }

    static Row rssFlat(Map<String, CellMedians> cells) {
        CellMedians lo = at(cells, OriginSummary.TERN, OriginSummary.CLASSIC, 50);
        CellMedians hi = at(cells, OriginSummary.TERN, OriginSummary.CLASSIC, 4000);
        double growth = lo == null || hi == null ? Double.NaN : Summary.ratio(hi.peakRssMiB(), lo.peakRssMiB());
        return new Row(
                "Peak RSS, Tern, 50 → 4000 viewers",
                "flat",
                Double.isNaN(growth)
                        ? "–"
                        : OriginSummary.fmt(lo.peakRssMiB(), 1) + " → " + OriginSummary.fmt(hi.peakRssMiB(), 1)
                                + " MiB (" + OriginSummary.fmt(growth, 2) + "×)",
                Double.isNaN(growth) ? NOT_MEASURED : growth <= FLAT_FACTOR ? MET : MISSED,
                "classic cells' median peak RSS; called flat when the 4000-viewer figure is within "
                        + String.format(Locale.ROOT, "%.2f", FLAT_FACTOR) + "× the 50-viewer one");
    }

    static Row llCpu(Map<String, CellMedians> cells) {
        List<String> parts = new ArrayList<>();
        boolean all = true;
        int n = 0;
        for (int v : List.of(750, 4000)) {
            CellMedians ll = at(cells, OriginSummary.TERN, OriginSummary.LL, v);
            CellMedians x = at(cells, OriginSummary.NGINX, OriginSummary.CLASSIC, v);
            if (ll == null || x == null) {
                continue;
            }
            parts.add(v + ": " + OriginSummary.fmt(ll.serverUsPerRequest(), 1) + " vs nginx classic "
                    + OriginSummary.fmt(x.serverUsPerRequest(), 1) + " µs");
            all &= ll.serverUsPerRequest() <= x.serverUsPerRequest();
            n++;
        }
        return new Row(
                "CPU per request, LL, 750 and 4000 viewers",
                "≤ nginx's classic figure",
                n == 0 ? "–" : String.join("; ", parts),
                n == 0 ? NOT_MEASURED : all ? MET : MISSED,
                "as above; Tern's LL cell against nginx's classic cell of the same size");
    }

    static Row llErrors(Map<String, CellMedians> cells) {
        List<CellMedians> ll = of(cells, OriginSummary.TERN, OriginSummary.LL);
        long errors = ll.stream().mapToLong(CellMedians::errors).sum();
        long requests = ll.stream().mapToLong(CellMedians::requests).sum();
        return new Row(
                "LL errors",
                "none",
                ll.isEmpty() ? "–" : errors + " in " + requests + " requests",
                ll.isEmpty() ? NOT_MEASURED : errors == 0 ? MET : MISSED,
                "every LL run's failed requests (HTTP ≥ 400, other statuses, connection failures, timeouts, "
                        + "malformed answers) in the measured window, summed");
    }

    static Row llPartDelay(Map<String, CellMedians> cells) {
        List<CellMedians> ll = of(cells, OriginSummary.TERN, OriginSummary.LL);
        double worst = worst(ll, CellMedians::variantPartDelayP99Ms);
        double worstAll = worst(ll, CellMedians::partDelayP99Ms);
        double target = ll.stream()
                .mapToDouble(CellMedians::partTargetMs)
                .filter(d -> d > 0)
                .max()
                .orElse(Double.NaN);
        return new Row(
                "LL part delivery delay p99",
                "≤ one part target",
                OriginSummary.fmt(worst, 1) + " ms video, worst cell (PART-TARGET " + OriginSummary.fmt(target, 1)
                        + " ms); with the audio rendition " + OriginSummary.fmt(worstAll, 1) + " ms",
                Double.isNaN(worst) || Double.isNaN(target) ? NOT_MEASURED : worst <= target ? MET : MISSED,
                "per part download: completed minus the first time any viewer received a playlist listing it "
                        + "(0 when a preload-hinted download finished first); p99 per run, median per cell, worst cell; "
                        + "judged on the variant (video), the rendition a player's latency follows");
    }

    private static double worst(List<CellMedians> cells, ToDoubleFunction<CellMedians> f) {
        return cells.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
    }

    static Row llRelease(Map<String, CellMedians> cells) {
        List<CellMedians> ll = of(cells, OriginSummary.TERN, OriginSummary.LL);
        double worst = worst(ll, CellMedians::releaseP99Ms);
        return new Row(
                "LL blocked-reload release p99",
                "≤ 20 ms",
                OriginSummary.fmt(worst, 1) + " ms, worst cell",
                Double.isNaN(worst) ? NOT_MEASURED : worst <= RELEASE_GOAL_MS ? MET : MISSED,
                "per blocking reload: its answer's arrival minus the first evidence that the part it waited for "
                        + "existed (a playlist listing it, or the hinted download of it completing, whichever came first, "
                        + "any viewer)");
    }

    static Row edge(Map<String, CellMedians> cells) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (CellMedians c : cells.values()) {
            double e = c.edgeAdvance();
            if (!Double.isNaN(e)) {
                lo = Double.isNaN(lo) ? e : Math.min(lo, e);
                hi = Double.isNaN(hi) ? e : Math.max(hi, e);
            }
        }
        boolean ok = !Double.isNaN(lo) && lo >= 1 - EDGE_TOLERANCE && hi <= 1 + EDGE_TOLERANCE;
        return new Row(
                "Live edge",
                "1.0 media s per wall s",
                Double.isNaN(lo) ? "–" : OriginSummary.fmt(lo, 3) + "–" + OriginSummary.fmt(hi, 3) + " (cell medians)",
                Double.isNaN(lo) ? NOT_MEASURED : ok ? MET : MISSED,
                "least-squares slope of each new segment's end (sum of EXTINF) over the time it was first listed, "
                        + "in the window; met within ±" + (int) (EDGE_TOLERANCE * 100) + "%");
    }

    static Row seedRatio(Map<String, CellMedians> cells) {
        CellMedians t = at(cells, OriginSummary.TERN, OriginSummary.CLASSIC, 750);
        CellMedians n = at(cells, OriginSummary.NGINX, OriginSummary.CLASSIC, 750);
        CellMedians ll = at(cells, OriginSummary.TERN, OriginSummary.LL, 750);
        double r = t == null || n == null ? Double.NaN : Summary.ratio(t.serverCpuPercent(), n.serverCpuPercent());
        double rl = ll == null || n == null ? Double.NaN : Summary.ratio(ll.serverCpuPercent(), n.serverCpuPercent());
        return new Row(
                "The seed's own ratio (orientation)",
                "Sapflow used 0.21× MediaMTX's CPU",
                "Tern/nginx server CPU at 750 viewers: classic " + OriginSummary.fmt(r, 2)
                        + "×, Tern LL vs nginx classic " + OriginSummary.fmt(rl, 2) + "×",
                "recorded",
                "median server CPU % of the cells; not a like-for-like comparison with the seed's figure (other "
                        + "servers, machine and load)");
    }
}
