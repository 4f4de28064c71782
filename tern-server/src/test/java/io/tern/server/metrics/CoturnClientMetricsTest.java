package io.tern.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.testkit.ExternalPeers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** coturn's turnutils_uclient (client to client, REST secret) against Tern; its traffic shows in {@code /metrics}. */
class CoturnClientMetricsTest {
    private static final int MESSAGES = 40;
    private static final int CLIENTS = 4;

    @Test
    void uclientTrafficShowsInMetrics() throws Exception {
        Path uclient = require("turnutils_uclient");
        try (RelayFixture relay = RelayFixture.start()) {
            List<String> command = List.of(
                    uclient.toString(),
                    "-W",
                    RelayFixture.SECRET,
                    "-y",
                    "-n",
                    Integer.toString(MESSAGES),
                    "-m",
                    Integer.toString(CLIENTS),
                    "-l",
                    "160",
                    "-p",
                    Integer.toString(relay.udpAddress().getPort()),
                    "127.0.0.1");
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            // uclient prints little; read after exit (bounded wait), its output fits the pipe.
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("turnutils_uclient did not finish in 60 s");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(output).isZero();
            assertThat(output).contains("Total lost packets 0");

            Map<String, Double> m = relay.scrape();
            System.out.println("after turnutils_uclient -y -m " + CLIENTS + " -n " + MESSAGES + ": " + nonZeroTern(m));
            // -y -m CLIENTS: CLIENTS clients in pairs, each sending MESSAGES to its partner's relayed address.
            assertThat(m.get(RelayFixture.series(
                            "tern_relayed_packets_total{direction=\"client_to_peer\",transport=\"udp\"}")))
                    .isGreaterThanOrEqualTo((double) CLIENTS * MESSAGES);
            assertThat(m.get(RelayFixture.series(
                            "tern_relayed_packets_total{direction=\"peer_to_client\",transport=\"udp\"}")))
                    .isGreaterThanOrEqualTo((double) CLIENTS * MESSAGES);
            assertThat(m.get(RelayFixture.series("tern_requests_total{method=\"allocate\"}")))
                    .isGreaterThanOrEqualTo((double) CLIENTS);
            assertThat(m.get(RelayFixture.series("tern_error_responses_total{code=\"401\"}")))
                    .isGreaterThanOrEqualTo(1.0);
            assertThat(m.get("tern_auth_failures_total")).isZero();
        }
    }

    private static String nonZeroTern(Map<String, Double> samples) {
        StringBuilder out = new StringBuilder();
        samples.entrySet().stream()
                .filter(e -> e.getKey().startsWith("tern_") && e.getValue() != 0)
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append(e.getKey())
                        .append('=')
                        .append(e.getValue().longValue())
                        .append(' '));
        return out.toString().trim();
    }

    private static Path require(String tool) {
        return ExternalPeers.require(tool, "coturn");
    }
}
