package io.tern.bench.load;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One measured run, serialised with the field names of the reference measurement
 * ({@code /work/shared/reference}), plus transport, server version, relay threads, the
 * generator's own CPU use, the part of the server's CPU time spent in the kernel (over the
 * same setup + measured window as {@code server_cpu_seconds}), the part spent on setup, and
 * which generator ran the data phase ({@code c}: turnload, {@code java}: the Netty worker).
 */
public record RunResult(
        int clients,
        int loadWorkers,
        int payloadBytes,
        int window,
        long roundTrips,
        long deliveredForwardedPackets,
        double seconds,
        double packetsPerSecond,
        double payloadMbps,
        double roundTripP50Us,
        double roundTripP99Us,
        double setupMs,
        long lossOrCorruption,
        String server,
        long idleRssBytes,
        long loadedRssBytes,
        long peakSampledRssBytes,
        double serverCpuSeconds,
        double totalWorkloadWallSeconds,
        double serverCpuPercent,
        int loadedUdpSockets,
        int repeat,
        String transport,
        String serverVersion,
        int relayThreads,
        double generatorCpuPercent,
        boolean generatorSaturated,
        double serverSystemCpuSeconds,
        double serverSetupCpuSeconds,
        String generator) {

    /** Field names in output order: the reference's, then Tern's additions. */
    public static final List<String> FIELDS = List.of(
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
            "repeat",
            "transport",
            "server_version",
            "relay_threads",
            "generator_cpu_percent",
            "generator_saturated",
            "server_system_cpu_seconds",
            "server_setup_cpu_seconds",
            "generator");

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("clients", clients);
        m.put("load_workers", loadWorkers);
        m.put("payload_bytes", payloadBytes);
        m.put("window", window);
        m.put("round_trips", roundTrips);
        m.put("delivered_forwarded_packets", deliveredForwardedPackets);
        m.put("seconds", round(seconds, 6));
        m.put("packets_per_second", round(packetsPerSecond, 1));
        m.put("payload_mbps", round(payloadMbps, 1));
        m.put("round_trip_p50_us", round(roundTripP50Us, 3));
        m.put("round_trip_p99_us", round(roundTripP99Us, 3));
        m.put("setup_ms", round(setupMs, 3));
        m.put("loss_or_corruption", lossOrCorruption);
        m.put("server", server);
        m.put("idle_rss_bytes", idleRssBytes);
        m.put("loaded_rss_bytes", loadedRssBytes);
        m.put("peak_sampled_rss_bytes", peakSampledRssBytes);
        m.put("server_cpu_seconds", round(serverCpuSeconds, 6));
        m.put("total_workload_wall_seconds", round(totalWorkloadWallSeconds, 6));
        m.put("server_cpu_percent", round(serverCpuPercent, 2));
        m.put("loaded_udp_sockets", loadedUdpSockets);
        m.put("repeat", repeat);
        m.put("transport", transport);
        m.put("server_version", serverVersion);
        m.put("relay_threads", relayThreads);
        m.put("generator_cpu_percent", round(generatorCpuPercent, 2));
        m.put("generator_saturated", generatorSaturated);
        m.put("server_system_cpu_seconds", round(serverSystemCpuSeconds, 6));
        m.put("server_setup_cpu_seconds", round(serverSetupCpuSeconds, 6));
        m.put("generator", generator);
        return m;
    }

    public String toJson() {
        return Json.write(toMap());
    }

    public RunResult withRepeat(int newRepeat) {
        return new RunResult(
                clients,
                loadWorkers,
                payloadBytes,
                window,
                roundTrips,
                deliveredForwardedPackets,
                seconds,
                packetsPerSecond,
                payloadMbps,
                roundTripP50Us,
                roundTripP99Us,
                setupMs,
                lossOrCorruption,
                server,
                idleRssBytes,
                loadedRssBytes,
                peakSampledRssBytes,
                serverCpuSeconds,
                totalWorkloadWallSeconds,
                serverCpuPercent,
                loadedUdpSockets,
                newRepeat,
                transport,
                serverVersion,
                relayThreads,
                generatorCpuPercent,
                generatorSaturated,
                serverSystemCpuSeconds,
                serverSetupCpuSeconds,
                generator);
    }

    static double round(double v, int places) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_EVEN).doubleValue();
    }
}
