package io.tern.bench.load;

import java.net.InetSocketAddress;
import java.nio.file.Path;

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
 * @param warmupSeconds   minimum duration of the warm-up phase: long enough for a JVM server's JIT
 *                        compiler to finish with the relay path, whose CPU would otherwise be
 *                        charged to the first measured packets
 * @param lossTimeoutMs   an echo not back within this is counted lost and its slot reissued
 * @param connectedUdp    UDP clients connect(2) their socket to the server and write bare datagrams,
 *                        instead of sendto on an unconnected socket (the default)
 * @param nativeGenerator the turnload binary that runs the warm-up and measured phases on the
 *                        sockets set up here (UDP and TCP), or null for the Java workers
 * @param noAuth          the server answers without authentication (the minimal forwarder): the
 *                        first Allocate is expected to succeed, not to be challenged
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
        double warmupSeconds,
        long lossTimeoutMs,
        String secret,
        String realm,
        String user,
        long serverPid,
        String serverName,
        String serverVersion,
        int relayThreads,
        int repeat,
        boolean connectedUdp,
        Path nativeGenerator,
        boolean noAuth) {

    /** Unconnected UDP client sockets, a warm-up bounded by round trips only, the Java generator. */
    public LoadConfig(
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
        this(
                server,
                transport,
                clients,
                loadWorkers,
                payloadBytes,
                window,
                roundTrips,
                minSeconds,
                maxSeconds,
                warmupRoundTrips,
                0,
                lossTimeoutMs,
                secret,
                realm,
                user,
                serverPid,
                serverName,
                serverVersion,
                relayThreads,
                repeat,
                false,
                null,
                false);
    }

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
        if (nativeGenerator != null && transport == Transport.TLS) {
            throw new IllegalArgumentException("the native generator speaks UDP and TCP, not TLS");
        }
        if (maxSeconds < minSeconds) {
            throw new IllegalArgumentException("max seconds below min seconds");
        }
    }

    /**
     * Default worker count: half the CPUs, at least one, never more than clients; one on a 2-CPU
     * machine. Measured there (bench/README.md, "Load generator cost"): with the same packets in
     * flight, one worker cost the least generator CPU per packet (16-17 µs against 18-21 µs for
     * two and 19-23 µs for four) and relayed as many packets per second or more, since the server
     * needs the other CPU. Larger machines are not measured yet.
     */
    public static int defaultWorkers(int clients) {
        int cpus = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(clients, cpus / 2));
    }

    /** Packets in flight in total by default: 8 for one client, 32 otherwise (what 4 workers x 8 used to offer). */
    public static int defaultInFlight(int clients) {
        return clients == 1 ? 8 : 32;
    }
}
