package io.tern.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunResultTest {
    /** Field names of one run in the reference measurement, in its order (its "binary_bytes" is left out: no binary here). */
    private static final List<String> REFERENCE = List.of(
            "clients",
            "load_workers",
            "payload_bytes",
            "window",
            "round_trips",
            "delivered_forwarded_packets",
            "seconds",
            "packets_per_second",
            "payload_mbps",
            "round_trip_p50_us",
            "round_trip_p99_us",
            "setup_ms",
            "loss_or_corruption",
            "server",
            "idle_rss_bytes",
            "loaded_rss_bytes",
            "peak_sampled_rss_bytes",
            "server_cpu_seconds",
            "total_workload_wall_seconds",
            "server_cpu_percent",
            "loaded_udp_sockets",
            "repeat");

    private static final List<String> ADDED = List.of(
            "transport",
            "server_version",
            "relay_threads",
            "generator_cpu_percent",
            "generator_saturated",
            "server_system_cpu_seconds",
            "server_setup_cpu_seconds",
            "generator");

    static RunResult sample() {
        return new RunResult(
                16,
                4,
                1200,
                32,
                200_000,
                400_000,
                1.807948,
                221245.4321,
                2124.01,
                30.5834,
                257.7081,
                0.7113,
                0,
                "coturn",
                1638400,
                1720320,
                1720320,
                1.7348031,
                1.909348,
                90.8612,
                17,
                2,
                "udp",
                "coturn 4.6.1 \"x\"",
                1,
                55.555,
                false,
                1.5120001,
                0.31,
                "c");
    }

    @Test
    void jsonHasExactlyTheReferenceFieldsThenTheAdditions() {
        Map<String, Object> parsed = Json.parseObject(sample().toJson());
        assertThat(parsed.keySet())
                .containsExactlyElementsOf(java.util.stream.Stream.concat(REFERENCE.stream(), ADDED.stream())
                        .toList());
        assertThat(RunResult.FIELDS).containsExactlyElementsOf(parsed.keySet());
    }

    @Test
    void valuesRoundTripWithReferencePrecision() {
        Map<String, Object> p = Json.parseObject(sample().toJson());
        assertThat(p.get("clients")).isEqualTo(16L);
        assertThat(p.get("packets_per_second")).isEqualTo(221245.4);
        assertThat(p.get("round_trip_p99_us")).isEqualTo(257.708);
        assertThat(p.get("server_cpu_percent")).isEqualTo(90.86);
        assertThat(p.get("server")).isEqualTo("coturn");
        assertThat(p.get("server_version")).isEqualTo("coturn 4.6.1 \"x\"");
        assertThat(p.get("generator_saturated")).isEqualTo(false);
        assertThat(p.get("server_system_cpu_seconds")).isEqualTo(1.512);
        assertThat(p.get("server_setup_cpu_seconds")).isEqualTo(0.31);
        assertThat(p.get("generator")).isEqualTo("c");
    }

    @Test
    void parserHandlesTheReferenceFileStyle() {
        Map<String, Object> p = Json.parseObject("{ \"a\": -1.5e3, \"b\": null, \"c\": true, \"d\": \"\\u00b5s\" }");
        assertThat(p.get("a")).isEqualTo(-1500.0);
        assertThat(p).containsEntry("b", null);
        assertThat(p.get("c")).isEqualTo(true);
        assertThat(p.get("d")).isEqualTo("µs");
    }
}
