package io.tern.bench.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.websocket.EchoBenchmark.LatencyRow;
import io.tern.bench.websocket.EchoBenchmark.ThroughputRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EchoReportTest {
    @Test
    void ratiosAreTernsOverEachOtherServersMediansAndTheirGeometricMean() {
        EchoReport report = new EchoReport(
                List.of("tern", "netty"),
                2,
                5,
                List.of(
                        new LatencyRow("tern", "9.7.1", true, 0, 40, 20, 90),
                        new LatencyRow("tern", "9.8.1", false, 0, 10, 10, 30),
                        new LatencyRow("netty", "9.7.1", true, 0, 20, 40, 90),
                        new LatencyRow("netty", "9.8.1", false, 0, 40, 20, 30)),
                List.of(
                        new ThroughputRow("tern", 1, 300, 1, 300, "1.00 1.00 1.00"),
                        new ThroughputRow("netty", 1, 100, 1, 100, "1.00 1.00 1.00"),
                        new ThroughputRow("tern", 2, 100, 1, 100, "1.00 1.00 1.00"),
                        new ThroughputRow("netty", 2, 100, 1, 200, "1.00 1.00 1.00")));
        String md = report.markdown("1.0 1.0 1.0", "2.0 2.0 2.0", 1.5);
        assertThat(md)
                .contains("| 9.7.1 0 B | 0.50 | 2.00 |")
                .contains("| 9.8.1 0 B | 0.50 | 0.25 |")
                .contains("| geometric mean | **0.50** | **0.71** |")
                // medians over runs: tern 200 vs 100 messages/s, 200 vs 150 per CPU-second
                .contains("| netty | 2.00 | 1.33 |")
                .contains("1.0 1.0 1.0 before, 2.0 2.0 2.0 after");
    }

    @Test
    void theServersPortIsReadFromItsLog(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("tern.log");
        assertThat(EchoBenchmark.portIn(log)).isZero();
        Files.writeString(log, "starting\nPORT 41234\n");
        assertThat(EchoBenchmark.portIn(log)).isEqualTo(41234);
    }
}
