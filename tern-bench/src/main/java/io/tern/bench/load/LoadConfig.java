package io.tern.bench.load;

import java.net.InetSocketAddress;

/**
 * Everything one run of the load generator needs.
 *
 * @param server          the TURN server's listening address (loopback only)
 * @param serverPid       PID whose /proc figures are reported, or -1 for none
 * @param window          packets in flight per load worker
 * @param roundTrips      minimum round trips of the measured phase (all workers together)
 * @param minSeconds      minimum duration of the measured phase
 * @param maxSeconds      hard bound on any phase; a run that hits it is reported as is
 * @param warmupRoundTrips round trips of the uncounted warm-up phase (0 for none)
 * @param lossTimeoutMs   an echo not back within this is counted lost and its slot reissued
 */
public record LoadConfig(
        InetSocketAddress server,
        Transport transport,
        int clients,
        int loadWorkers,
        int payloadBytes,
        int window,
        long roundTrips,
        double minSeconds,
        double maxSeconds,
        long warmupRoundTrips,
        long lossTimeoutMs,
        String secret,
        String realm,
        String user,
        long serverPid,
        String serverName,
        String serverVersion,
        int relayThreads,
        int repeat) {

    public LoadConfig {
        if (!server.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("benchmark traffic must stay on loopback: " + server);
        }
        if (clients < 1 || loadWorkers < 1 || window < 1) {
            throw new IllegalArgumentException("clients, load workers and window must be positive");
        }
        if (payloadBytes < Payload.HEADER_BYTES || payloadBytes > 65_000) {
            throw new IllegalArgumentException("payload must be " + Payload.HEADER_BYTES + "..65000 bytes");
        }
        if (window > 65_535) {
            throw new IllegalArgumentException("window too large");
        }
        if (maxSeconds < minSeconds) {
            throw new IllegalArgumentException("max seconds below min seconds");
        }
    }

    /** Default worker count: 1 for a single client, 4 otherwise (never more workers than clients). */
    public static int defaultWorkers(int clients) {
        return clients == 1 ? 1 : Math.min(4, clients);
    }
}
