package io.tern.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tern.bench.load.Json;
import io.tern.bench.load.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {
    private static Map<String, Object> row(
            String server, double pps, double p99, double cpuSeconds, long packets, long rss) {
        return row(server, pps, p99, cpuSeconds, cpuSeconds * 0.8, packets, rss);
    }

    private static Map<String, Object> row(
            String server, double pps, double p99, double cpuSeconds, double systemSeconds, long packets, long rss) {
        RunResult r = new RunResult(
                16,
                4,
                1200,
                8,
                packets / 2,
                packets,
                1.0,
                pps,
                0,
                10,
                p99,
                1,
                0,
                server,
                1000,
                rss,
                rss,
                cpuSeconds,
                1.1,
                50,
                17,
                1,
                "udp",
                server + " 1.0",
                1,
                40,
                false,
                systemSeconds,
                0.25,
                "c");
        return Json.parseObject(r.toJson());
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(Summary.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(Summary.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
        assertThat(Summary.median(List.of())).isNaN();
        assertThat(Summary.median(List.of(Double.NaN, 5.0))).isEqualTo(5.0);
    }

    @Test
    void ratiosAreTernOverCoturnOfMedians() {
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(row("tern", 300_000, 100, 1.0, 400_000, 50 << 20));
        rows.add(row("coturn", 200_000, 400, 2.0, 400_000, 10 << 20));
        rows.add(row("tern", 330_000, 120, 1.2, 400_000, 50 << 20));
        rows.add(row("coturn", 220_000, 300, 2.4, 400_000, 10 << 20));
        rows.add(row("tern", 310_000, 110, 1.1, 400_000, 50 << 20));
        rows.add(row("coturn", 210_000, 350, 2.2, 400_000, 10 << 20));
        Map<String, Map<String, Summary.Medians>> cells = Summary.medians(rows);
        assertThat(cells).hasSize(1);
        Map<String, Summary.Medians> cell = cells.values().iterator().next();
        Summary.Ratios r = Summary.ratios(cell.get("tern"), cell.get("coturn"));
        assertThat(r.packetsPerSecond()).isCloseTo(310_000.0 / 210_000, within(1e-9));
        assertThat(r.p99()).isCloseTo(110.0 / 350, within(1e-9));
        // CPU per delivered packet: 1.1 s / 400k vs 2.2 s / 400k.
        assertThat(r.cpuPerPacket()).isCloseTo(0.5, within(1e-9));
        assertThat(r.loadedRss()).isCloseTo(5.0, within(1e-9));

        rows.add(row("minifwd", 250_000, 90, 1.0, 400_000, 2 << 20));
        String md = Summary.markdown("t", List.of(), rows, List.of("skipped: x"));
        // Tern's kernel part, 0.8 of 1.1 s, over coturn's whole 2.2 s: 0.40; the forwarder's 1.0 s
        // against coturn's 2.2 s (0.45) and Tern's 1.1 s against the forwarder's (1.10).
        assertThat(md)
                .contains("| udp c=16 p=1200 rt=1 w=8 lw=4 | c | 1.48 | 0.31 | 0.50 | 0.50 | 0.50 | 0.40 | 5.00 "
                        + "| 0.45 | 1.10 | 0, 0 |");
        assertThat(md).contains("skipped: x");
    }

    @Test
    void cpuPerPacketSplitsIntoKernelAndUserParts() {
        // Tern: 1.2 s of CPU, 0.6 in the kernel; coturn: 1.0 s, 0.9 in the kernel; 400k packets each.
        List<Map<String, Object>> rows =
                List.of(row("tern", 1, 1, 1.2, 0.6, 400_000, 1), row("coturn", 1, 1, 1.0, 0.9, 400_000, 1));
        Map<String, Summary.Medians> cell =
                Summary.medians(rows).values().iterator().next();
        assertThat(cell.get("tern").kernelUsPerPacket()).isCloseTo(1.5, within(1e-9));
        assertThat(cell.get("tern").userUsPerPacket()).isCloseTo(1.5, within(1e-9));
        assertThat(cell.get("tern").setupCpuMs()).isCloseTo(250, within(1e-9));
        Summary.Ratios r = Summary.ratios(cell.get("tern"), cell.get("coturn"));
        assertThat(r.cpuPerPacket()).isCloseTo(1.2, within(1e-9));
        assertThat(r.kernelPerPacket()).isCloseTo(0.6 / 0.9, within(1e-9));
        assertThat(r.userPerPacket()).isCloseTo(0.6 / 0.1, within(1e-9));
        assertThat(r.kernelFloor()).isCloseTo(0.6 / 1.0, within(1e-9));
    }

    @Test
    void rowsWithoutSystemTimeLeaveTheSplitEmpty() {
        Map<String, Object> old = row("tern", 1, 1, 1.0, 400_000, 1);
        old.remove("server_system_cpu_seconds");
        Summary.Medians m =
                Summary.medians(List.of(old)).values().iterator().next().get("tern");
        assertThat(m.cpuUsPerPacket()).isCloseTo(2.5, within(1e-9));
        assertThat(m.kernelUsPerPacket()).isNaN();
        assertThat(m.userUsPerPacket()).isNaN();
    }

    @Test
    void ratioIsUndefinedWithoutADenominator() {
        assertThat(Summary.ratio(1, 0)).isNaN();
        assertThat(Summary.ratio(Double.NaN, 2)).isNaN();
        assertThat(Summary.ratio(1, -1)).isNaN();
        assertThat(Summary.ratio(3, 2)).isEqualTo(1.5);
    }

    @Test
    void aRebuiltReportKeepsThePreambleAndNotesOfTheOneItReplaces() {
        String before = Summary.markdown(
                "t",
                List.of("- date: 2026-12-03, host: vm", "- load average before: 1.2; after: 2.4"),
                List.of(row("tern", 1, 1, 1, 2, 1)),
                List.of("skipped: minifwd over tcp (not supported by this configuration)"));
        assertThat(Summary.previousPreamble(before))
                .containsExactly("- date: 2026-12-03, host: vm", "- load average before: 1.2; after: 2.4");
        assertThat(Summary.previousNotes(before))
                .containsExactly("skipped: minifwd over tcp (not supported by this configuration)");

        List<String> stamped = new ArrayList<>(Summary.previousPreamble(before));
        stamped.add(Summary.REBUILT_STAMP + "`t.jsonl` on 2026-12-04");
        String rebuilt = Summary.markdown("t", stamped, List.of(), List.of());
        assertThat(Summary.previousPreamble(rebuilt))
                .as("an earlier rebuild's stamp is not carried into the next")
                .containsExactly("- date: 2026-12-03, host: vm", "- load average before: 1.2; after: 2.4");
        assertThat(Summary.previousNotes(rebuilt)).isEmpty();
    }

    @Test
    void onlyCoturnMeansNoRatioRows() {
        String md = Summary.markdown("t", List.of(), List.of(row("coturn", 1, 1, 1, 2, 1)), List.of());
        assertThat(md).contains("no cell has both servers yet");
    }
}
