package io.tern.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.runner.Summary.Medians;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelayGoalsTest {
    private static Medians m(String server, double pps, double p99, double cpu, int saturated, long loss) {
        return new Medians(
                server, 3, pps, 10, p99, cpu, cpu / 2, cpu / 2, 0, 1, 1, 1, 50, saturated, loss, server, "c");
    }

    private static Map<String, Medians> cell(Medians... ms) {
        Map<String, Medians> byServer = new LinkedHashMap<>();
        for (Medians x : ms) {
            byServer.put(x.server(), x);
        }
        return byServer;
    }

    private static RelayGoals.Row row(Map<String, Map<String, Medians>> cells, String figure) {
        return RelayGoals.rows(cells).stream()
                .filter(r -> r.figure().equals(figure))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aGoalHoldsOnlyIfEveryCellOfItsTransportMeetsIt() {
        Map<String, Map<String, Medians>> cells = new LinkedHashMap<>();
        cells.put(
                "udp c=1 p=160 rt=1 w=8 lw=1",
                cell(
                        m("tern", 120, 90, 0.9, 0, 0),
                        m("coturn", 100, 100, 1.0, 0, 0),
                        m("minifwd", 150, 80, 0.8, 0, 0)));
        cells.put(
                "udp c=16 p=1200 rt=2 w=32 lw=1",
                cell(
                        m("tern", 103, 110, 0.9, 1, 0),
                        m("coturn", 100, 100, 1.0, 0, 0),
                        m("minifwd", 150, 80, 0.7, 0, 0)));
        cells.put(
                "tcp c=1 p=1200 rt=1 w=8 lw=1", cell(m("tern", 130, 90, 0.8, 0, 0), m("coturn", 100, 100, 1.0, 0, 0)));

        RelayGoals.Row udpPps = row(cells, "UDP packets/s vs coturn");
        assertThat(udpPps.status()).isEqualTo(RelayGoals.MISSED);
        assertThat(udpPps.measured())
                .startsWith("met in 1 of 2 cells (1.03–1.20); missed: udp c=16 p=1200 rt=2 1.03")
                .contains("saturated in some runs of 1 of these cells");

        assertThat(row(cells, "UDP server CPU per delivered packet vs coturn").status())
                .isEqualTo(RelayGoals.MET);
        // 0.9 / 0.7 = 1.29 > 1.15 in the second cell; 0.9 / 0.8 = 1.125 holds in the first.
        RelayGoals.Row fwd = row(cells, "UDP server CPU per delivered packet vs the minimal C forwarder");
        assertThat(fwd.status()).isEqualTo(RelayGoals.MISSED);
        assertThat(fwd.measured()).contains("udp c=16 p=1200 rt=2 1.29");

        // The TCP cell counts only for TCP; p99 counts every cell.
        assertThat(row(cells, "TCP packets/s vs coturn").measured()).startsWith("met in 1 of 1 cells (1.30–1.30)");
        assertThat(row(cells, "p99 round trip vs coturn").measured()).startsWith("met in 2 of 3 cells");
    }

    @Test
    void aGoalWithoutCellsIsNotMeasuredNeverMet() {
        Map<String, Map<String, Medians>> cells = new LinkedHashMap<>();
        cells.put("udp c=1 p=160 rt=1 w=8 lw=1", cell(m("tern", 120, 90, 0.9, 0, 0), m("coturn", 100, 100, 1.0, 0, 0)));
        assertThat(row(cells, "TLS packets/s vs coturn").status()).isEqualTo(RelayGoals.NOT_MEASURED);
        assertThat(row(cells, "UDP server CPU per delivered packet vs the minimal C forwarder")
                        .status())
                .isEqualTo(RelayGoals.NOT_MEASURED);
        assertThat(row(cells, "Idle RSS, Tern").status()).isEqualTo(RelayGoals.NOT_MEASURED);
    }

    @Test
    void anyLostPacketMissesTheLossGoal() {
        Map<String, Map<String, Medians>> clean =
                Map.of("udp c=1 p=160 rt=1 w=8 lw=1", cell(m("tern", 1, 1, 1, 0, 0), m("coturn", 1, 1, 1, 0, 5)));
        assertThat(row(clean, "Loss or corruption, Tern").status()).isEqualTo(RelayGoals.MET);
        assertThat(row(clean, "Loss or corruption, Tern").measured()).isEqualTo("0 packets in 3 runs");
        Map<String, Map<String, Medians>> lossy =
                Map.of("udp c=1 p=160 rt=1 w=8 lw=1", cell(m("tern", 1, 1, 1, 0, 2), m("coturn", 1, 1, 1, 0, 0)));
        assertThat(row(lossy, "Loss or corruption, Tern").status()).isEqualTo(RelayGoals.MISSED);
    }

    @Test
    void theSummaryCarriesTheGoalsTable() {
        String md = Summary.markdown("t", List.of(), List.of(), List.of());
        assertThat(md).contains("## Goals (issue 16), cell by cell").contains("| UDP packets/s vs coturn | ≥ 1.05×");
    }
}
