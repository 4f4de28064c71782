package io.tern.bench.runner;

import io.tern.bench.runner.Summary.Medians;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;

/**
 * Issue 16's goals for the relay, each checked in every cell of the run that can measure it. A
 * goal holds only if it holds in every such cell; a goal with no such cell is "not measured",
 * never "met".
 */
final class RelayGoals {
    static final String MET = "met";
    static final String MISSED = "**missed**";
    static final String NOT_MEASURED = "not measured";

    record Row(String figure, String goal, String measured, String status) {}

    private RelayGoals() {}

    static String table(Map<String, Map<String, Medians>> cells) {
        StringBuilder sb = new StringBuilder("| figure | goal | measured | status |\n|---|---|---|---|\n");
        for (Row r : rows(cells)) {
            sb.append(String.format(
                    Locale.ROOT, "| %s | %s | %s | %s |\n", r.figure(), r.goal(), r.measured(), r.status()));
        }
        return sb.toString();
    }

    private static final ToDoubleBiFunction<Medians, Medians> PACKETS_PER_SECOND =
            (t, o) -> Summary.ratio(t.packetsPerSecond(), o.packetsPerSecond());
    private static final ToDoubleBiFunction<Medians, Medians> CPU_PER_PACKET =
            (t, o) -> Summary.ratio(t.cpuUsPerPacket(), o.cpuUsPerPacket());
    private static final ToDoubleBiFunction<Medians, Medians> P99 = (t, o) -> Summary.ratio(t.p99Us(), o.p99Us());

    static List<Row> rows(Map<String, Map<String, Medians>> cells) {
        String coturn = Summary.COTURN;
        List<Row> rows = new ArrayList<>();
        rows.add(ratioGoal(cells, "UDP packets/s vs coturn", "udp", coturn, PACKETS_PER_SECOND, 1.05, true));
        rows.add(ratioGoal(
                cells, "UDP server CPU per delivered packet vs coturn", "udp", coturn, CPU_PER_PACKET, 0.95, false));
        rows.add(ratioGoal(
                cells,
                "UDP server CPU per delivered packet vs the minimal C forwarder",
                "udp",
                Summary.FORWARDER,
                CPU_PER_PACKET,
                1.15,
                false));
        rows.add(ratioGoal(cells, "TCP packets/s vs coturn", "tcp", coturn, PACKETS_PER_SECOND, 1.2, true));
        rows.add(ratioGoal(cells, "TLS packets/s vs coturn", "tls", coturn, PACKETS_PER_SECOND, 1.3, true));
        rows.add(ratioGoal(cells, "p99 round trip vs coturn", null, coturn, P99, 1.0, false));
        rows.add(loss(cells));
        rows.add(new Row(
                "Idle RSS, Tern", "≤ 48 MiB", "not part of this matrix: `bench/idle-rss` measures it", NOT_MEASURED));
        rows.add(new Row(
                "Memory per allocation vs coturn",
                "≤ 1.0×",
                "not part of this matrix: the slope of loaded RSS over runs with more clients measures it",
                NOT_MEASURED));
        return rows;
    }

    /**
     * One ratio of Tern's medians to {@code other}'s, in every cell of {@code transport} (all
     * transports if null) where both ran; met if it is at least (or at most) {@code bound} in
     * each.
     */
    static Row ratioGoal(
            Map<String, Map<String, Medians>> cells,
            String figure,
            String transport,
            String other,
            ToDoubleBiFunction<Medians, Medians> ratio,
            double bound,
            boolean atLeast) {
        String goal = String.format(Locale.ROOT, "%s %.2f× in every cell", atLeast ? "≥" : "≤", bound);
        int measured = 0;
        int saturated = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        List<String> missed = new ArrayList<>();
        for (Map.Entry<String, Map<String, Medians>> e : cells.entrySet()) {
            if (transport != null && !e.getKey().startsWith(transport + " ")) {
                continue;
            }
            Medians t = e.getValue().get(Summary.TERN);
            Medians o = e.getValue().get(other);
            double r = t == null || o == null ? Double.NaN : ratio.applyAsDouble(t, o);
            if (Double.isNaN(r)) {
                continue;
            }
            measured++;
            min = Math.min(min, r);
            max = Math.max(max, r);
            if (t.saturatedRuns() > 0 || o.saturatedRuns() > 0) {
                saturated++;
            }
            if (atLeast ? r < bound : r > bound) {
                missed.add(String.format(Locale.ROOT, "%s %.2f", shortCell(e.getKey()), r));
            }
        }
        if (measured == 0) {
            return new Row(figure, goal, "no cell in this run", NOT_MEASURED);
        }
        StringBuilder m = new StringBuilder(String.format(
                Locale.ROOT, "met in %d of %d cells (%.2f–%.2f)", measured - missed.size(), measured, min, max));
        if (!missed.isEmpty()) {
            m.append("; missed: ").append(String.join(", ", missed));
        }
        if (saturated > 0) {
            m.append(String.format(
                    Locale.ROOT, "; the generator saturated in some runs of %d of these cells", saturated));
        }
        return new Row(figure, goal, m.toString(), missed.isEmpty() ? MET : MISSED);
    }

    private static Row loss(Map<String, Map<String, Medians>> cells) {
        int runs = 0;
        long lost = 0;
        for (Map<String, Medians> byServer : cells.values()) {
            Medians t = byServer.get(Summary.TERN);
            if (t != null) {
                runs += t.runs();
                lost += t.lossOrCorruption();
            }
        }
        if (runs == 0) {
            return new Row("Loss or corruption, Tern", "zero", "no Tern run", NOT_MEASURED);
        }
        return new Row(
                "Loss or corruption, Tern",
                "zero",
                String.format(Locale.ROOT, "%d packets in %d runs", lost, runs),
                lost == 0 ? MET : MISSED);
    }

    /** "udp c=16 p=1200 rt=2 w=32 lw=1" without the window and load workers, which the goals do not name. */
    static String shortCell(String cell) {
        int w = cell.indexOf(" w=");
        return w < 0 ? cell : cell.substring(0, w);
    }
}
