package io.tern.bench.nostr;

import java.util.List;
import java.util.Map;

/** The results of one run as Markdown: the goals, then one column per relay configuration. */
final class Report {
    private Report() {}

    /** A row: its label, the goal, the phase and figure it reads, and its unit. */
    private record Row(String label, String goal, String phase, String figure, String unit) {}

    private static final List<Row> ROWS = List.of(
            new Row("ingest, verified and stored events/s", ">= 10,000", "ingest", "eventsPerSecond", ""),
            new Row("ingest, relay CPU per event", "", "ingest", "serverCpuPerEventUs", " µs"),
            new Row("ingest, generator CPU (pre-signed events)", "", "ingest", "generatorCpuSeconds", " s"),
            new Row("ingest, relay RSS after", "", "ingest", "serverRssMiB", " MiB"),
            new Row("REQ→EOSE p50, limit 500", "", "req", "p50Ms", " ms"),
            new Row("REQ→EOSE p99, limit 500", "<= 5 ms", "req", "p99Ms", " ms"),
            new Row("REQ events returned (mean)", "500", "req", "meanEventsPerReq", ""),
            new Row("fan-out p50, 1,000 subscribers", "", "fanout", "p50Ms", " ms"),
            new Row("fan-out p99, 1,000 subscribers", "<= 5 ms", "fanout", "p99Ms", " ms"),
            new Row("fan-out deliveries / expected", "all", "fanout", "delivered", ""),
            new Row("fan-out relay CPU per delivery", "", "fanout", "serverCpuPerDeliveryUs", " µs"),
            new Row("idle RSS, no client", "", "memory", "idleRssMiB", " MiB"),
            new Row("memory per idle connection (10,000)", "<= 32 KiB", "memory", "perConnectionKiB", " KiB"));

    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> run, Map<String, Object> subjects) {
        StringBuilder md = new StringBuilder();
        md.append("# Nostr relay benchmark: ").append(run.get("name")).append("\n\n");
        md.append("PROVISIONAL: measured on a shared 2-core machine; rerun on a quiet one (bench/nostr/run).\n\n");
        md.append("- started ")
                .append(run.get("started"))
                .append(", load average before ")
                .append(run.get("loadAverageBefore"))
                .append(", after ")
                .append(run.get("loadAverageAfter"))
                .append("\n");
        md.append("- CPU: ")
                .append(run.get("cpu"))
                .append(", ")
                .append(run.get("cores"))
                .append(" cores\n");
        md.append("- generator: ").append(run.get("generator")).append("\n");
        md.append("- settings: ").append(run.get("settings")).append("\n\n");
        md.append("| | goal |");
        for (String subject : subjects.keySet()) {
            md.append(' ').append(subject).append(" |");
        }
        md.append("\n|---|---|");
        md.append("---:|".repeat(subjects.size())).append('\n');
        for (Row row : ROWS) {
            md.append("| ").append(row.label()).append(" | ").append(row.goal()).append(" |");
            for (Object value : subjects.values()) {
                Map<String, Object> phases = (Map<String, Object>) value;
                Map<String, Object> phase = (Map<String, Object>) phases.get(row.phase());
                Object figure = phase == null ? null : phase.get(row.figure());
                String text = figure == null ? "–" : figure + row.unit();
                if (row.figure().equals("delivered") && phase != null) {
                    text = phase.get("delivered") + " / " + phase.get("expected");
                }
                md.append(' ').append(text).append(" |");
            }
            md.append('\n');
        }
        for (Map.Entry<String, Object> subject : subjects.entrySet()) {
            Object error = ((Map<String, Object>) subject.getValue()).get("error");
            if (error != null) {
                md.append("\n")
                        .append(subject.getKey())
                        .append(" failed: `")
                        .append(error)
                        .append("`\n");
            }
        }
        md.append("\nEvery figure of every phase is in the JSON file beside this one.\n");
        return md.toString();
    }
}
