package io.tern.bench.origin.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OriginSummaryTest {
    static final double MIB = 1024 * 1024;

    static RunRecord row(
            String server, String mode, int viewers, int repeat, int attempt, double usPerRequest, double rssMiB) {
        return new RunRecord()
                .put(Fields.SERVER, server)
                .put(Fields.SERVER_VERSION, server + " 1")
                .put(Fields.REPEAT, repeat)
                .put(Fields.MODE, mode)
                .put(Fields.VIEWERS, viewers)
                .put(Fields.REQUESTS, 1000)
                .put(Fields.ERRORS, 0)
                .put(Fields.REQUESTS_PER_SECOND, 100.0)
                .put(Fields.SERVER_CPU_US_PER_REQUEST, usPerRequest)
                .put(
                        Fields.SERVER_CPU_US_PER_REQUEST_WITHOUT_JIT,
                        server.equals("tern") ? usPerRequest / 2 : usPerRequest)
                .put(Fields.SERVER_CPU_US_PER_VIEWER_SECOND, usPerRequest * (server.equals("tern") ? 6 : 3))
                .put(Fields.GENERATOR_CPU_US_PER_REQUEST, usPerRequest / 2)
                .put(Fields.SERVER_CPU_PERCENT, usPerRequest / 10)
                .put(Fields.SERVER_RSS_PEAK_BYTES, (long) (rssMiB * MIB))
                .put(Fields.SERVER_RSS_MEAN_BYTES, (long) (rssMiB * MIB))
                .put(Fields.SERVER_PSS_BYTES, (long) (rssMiB * MIB / 2))
                .put(Fields.PART_DELAY_P99_MS, mode.equals("ll") ? 250.0 : null)
                .put(Fields.VARIANT_PART_DELAY_P99_MS, mode.equals("ll") ? 150.0 : null)
                .put(Fields.RELEASE_LATENESS_P99_MS, mode.equals("ll") ? 12.0 : null)
                .put(Fields.PART_TARGET_MS, mode.equals("ll") || server.equals("tern") ? 208.34 : 0.0)
                .put(Fields.EDGE_ADVANCE, 1.001)
                .put(Fields.GENERATOR_BOTTLENECK, "")
                .put(Fields.GENERATOR_COSTLIER, false)
                .put(Fields.ATTEMPT, attempt)
                .put(Fields.DISTURBED, false);
    }

    static List<RunRecord> matrix() {
        List<RunRecord> rows = new ArrayList<>();
        for (int v : new int[] {50, 750, 4000}) {
            for (int rep = 1; rep <= 3; rep++) {
                rows.add(row("tern", "classic", v, rep, 1, 40 + rep, 50 + v / 1000.0));
                rows.add(row("nginx", "classic", v, rep, 1, 50, 28));
                rows.add(row("tern", "ll", v, rep, 1, 30, 55));
            }
        }
        return rows;
    }

    @Test
    void aRedoneRunCountsOnlyItsLastAttempt() {
        List<RunRecord> rows = new ArrayList<>(matrix());
        rows.add(0, row("tern", "classic", 50, 1, 0, 999, 999).put(Fields.DISTURBED, true));
        List<RunRecord> last = OriginSummary.finalAttempts(rows);
        assertThat(last).hasSize(27);
        assertThat(last).noneMatch(r -> r.number(Fields.SERVER_CPU_US_PER_REQUEST) == 999);
    }

    @Test
    void cellsAreMediansInOrder() {
        Map<String, CellMedians> cells = OriginSummary.cells(matrix());
        assertThat(cells.keySet())
                .containsExactly(
                        "classic|50|nginx",
                        "classic|50|tern",
                        "classic|750|nginx",
                        "classic|750|tern",
                        "classic|4000|nginx",
                        "classic|4000|tern",
                        "ll|50|tern",
                        "ll|750|tern",
                        "ll|4000|tern");
        CellMedians t = cells.get("classic|750|tern");
        assertThat(t.runs()).isEqualTo(3);
        assertThat(t.serverUsPerRequest()).isEqualTo(42);
        assertThat(t.requests()).isEqualTo(3000);
        assertThat(t.peakRssMiB()).isCloseTo(50.75, org.assertj.core.api.Assertions.within(0.01));
    }

    @Test
    void theRatioTableShowsTernWithoutItsJitBesideTheWholeFigure() {
        String table = OriginSummary.ratioTable(OriginSummary.cells(matrix()));
        assertThat(table).contains("| the same without JIT |");
        assertThat(table)
                .as("750 viewers: Tern 42 µs, 21 µs of it outside the JIT, against nginx's 50 µs")
                .contains("| 750 | 0.84 | 0.42 |");
    }

    @Test
    void goalsSayMetMissedOrNotMeasured() {
        List<Goals.Row> rows = Goals.rows(OriginSummary.cells(matrix()));
        assertThat(rows)
                .extracting(Goals.Row::figure, Goals.Row::status)
                .contains(
                        org.assertj.core.api.Assertions.tuple("CPU per request, classic, Tern vs nginx", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("Peak RSS, Tern, 750 viewers", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("Peak RSS, Tern, 50 → 4000 viewers", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("CPU per request, LL, 750 and 4000 viewers", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("LL errors", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("LL part delivery delay p99", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("LL blocked-reload release p99", Goals.MET),
                        org.assertj.core.api.Assertions.tuple("Live edge", Goals.MET));

        List<RunRecord> worse = new ArrayList<>();
        for (RunRecord r : matrix()) {
            if (r.string(Fields.SERVER).equals("tern") && r.string(Fields.MODE).equals("classic")) {
                r.put(Fields.SERVER_CPU_US_PER_REQUEST, 60.0).put(Fields.SERVER_RSS_PEAK_BYTES, (long) (70 * MIB));
            }
            if (r.string(Fields.MODE).equals("ll")) {
                r.put(Fields.ERRORS, 2)
                        .put(Fields.RELEASE_LATENESS_P99_MS, 25.0)
                        .put(Fields.VARIANT_PART_DELAY_P99_MS, 300.0);
            }
            worse.add(r);
        }
        List<Goals.Row> missed = Goals.rows(OriginSummary.cells(worse));
        assertThat(missed.stream().filter(g -> g.status().equals(Goals.MISSED)).map(Goals.Row::figure))
                .contains(
                        "CPU per request, classic, Tern vs nginx",
                        "Peak RSS, Tern, 750 viewers",
                        "LL errors",
                        "LL part delivery delay p99",
                        "LL blocked-reload release p99");

        List<RunRecord> nginxOnly = matrix().stream()
                .filter(r -> r.string(Fields.SERVER).equals("nginx"))
                .toList();
        assertThat(Goals.rows(OriginSummary.cells(nginxOnly)))
                .filteredOn(g -> !g.figure().equals("Live edge") && !g.figure().startsWith("The seed"))
                .allMatch(g -> g.status().equals(Goals.NOT_MEASURED));
    }

    @Test
    void writesMarkdownAndChart(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("r.jsonl");
        StringBuilder sb = new StringBuilder();
        for (RunRecord r : matrix()) {
            sb.append(r.toJson()).append('\n');
        }
        Files.writeString(jsonl, sb.toString());
        OriginSummary.write(
                jsonl, dir.resolve("r.md"), dir.resolve("r.png"), List.of("- preamble line"), List.of("a note"));
        String md = Files.readString(dir.resolve("r.md"));
        assertThat(md)
                .contains("- preamble line")
                .contains("| classic | 750 | tern | 3 | 100 | 0 | 42.0 |")
                .contains("| 750 | 0.84 | 0.42 | 1.68 |")
                .contains("## Goals (issue 14), cell by cell")
                .contains("- a note")
                .contains("![CPU per request and peak RSS against viewers](r.png)");
        assertThat(Files.size(dir.resolve("r.png"))).isGreaterThan(1000);
        // Rebuilding keeps the run's own preamble.
        assertThat(OriginSummary.preambleOf(dir.resolve("r.md"))).containsExactly("- preamble line");
        assertThat(OriginSummary.preambleOf(dir.resolve("none.md"))).isEmpty();
    }
}
