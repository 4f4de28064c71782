package io.tern.bench.load;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * Hands the sockets the Java client set up to {@code turnload} (tern-bench/src/main/c), which
 * runs the warm-up and measured phases on them in C: the generator then costs less CPU per
 * packet than the servers it measures. The channels are taken off their event loops first, so
 * the JVM no longer reads them; turnload takes duplicates of their descriptors from this process
 * (pidfd_getfd) and reads the server's CPU time at the measured phase's edges itself.
 */
final class NativeLoad {
    /** What turnload printed, in its own field names. */
    record Result(
            long roundTrips,
            double seconds,
            double p50Us,
            double p99Us,
            long lost,
            long late,
            long duplicate,
            long corrupt,
            long unknown,
            double generatorCpuSeconds,
            double serverCpuSeconds,
            double serverSystemCpuSeconds) {

        static Result parse(String json) {
            Map<String, Object> m = Json.parseObject(json);
            return new Result(
                    l(m, "round_trips"),
                    d(m, "seconds"),
                    d(m, "round_trip_p50_us"),
                    d(m, "round_trip_p99_us"),
                    l(m, "lost"),
                    l(m, "late"),
                    l(m, "duplicate"),
                    l(m, "corrupt"),
                    l(m, "unknown"),
                    d(m, "generator_cpu_seconds"),
                    d(m, "server_cpu_seconds"),
                    d(m, "server_system_cpu_seconds"));
        }

        private static double d(Map<String, Object> m, String k) {
            Object o = m.get(k);
            if (!(o instanceof Number n)) {
                throw new IllegalArgumentException("turnload output lacks " + k);
            }
            return n.doubleValue();
        }

        private static long l(Map<String, Object> m, String k) {
            return (long) d(m, k);
        }
    }

    private NativeLoad() {}

    static Result run(LoadConfig config, List<Channel> clients, List<Channel> peers, int channelNumber)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                config.nativeGenerator().toString(),
                "--owner-pid",
                Long.toString(ProcessHandle.current().pid()),
                "--clients",
                descriptors(clients),
                "--peers",
                descriptors(peers),
                "--channel",
                Integer.toString(channelNumber),
                "--server",
                address(config.server()),
                "--payload",
                Integer.toString(config.payloadBytes()),
                "--window",
                Integer.toString(config.window() * config.loadWorkers()),
                "--round-trips",
                Long.toString(config.roundTrips()),
                "--min-seconds",
                Double.toString(config.minSeconds()),
                "--warmup-round-trips",
                Long.toString(config.warmupRoundTrips()),
                "--warmup-seconds",
                Double.toString(config.warmupSeconds()),
                "--max-seconds",
                Double.toString(config.maxSeconds()),
                "--loss-timeout-ms",
                Long.toString(config.lossTimeoutMs()),
                "--server-pid",
                Long.toString(config.serverPid())));
        if (config.transport().stream()) {
            command.add("--stream");
        } else if (config.connectedUdp()) {
            command.add("--connected");
        }
        for (Channel c : clients) {
            c.deregister().sync();
        }
        for (Channel c : peers) {
            c.deregister().sync();
        }
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        long boundSeconds = (long) (2 * config.maxSeconds() + 2 * config.lossTimeoutMs() / 1000.0 + 30);
        if (!p.waitFor(boundSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("turnload did not finish within " + boundSeconds + " s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0 || out.isEmpty()) {
            throw new IOException("turnload failed with exit code " + p.exitValue() + ": " + out);
        }
        return Result.parse(out.lines().reduce((a, b) -> b).orElseThrow());
    }

    private static String descriptors(List<Channel> channels) {
        StringJoiner j = new StringJoiner(",");
        for (Channel c : channels) {
            if (!(c instanceof UnixChannel u)) {
                throw new IllegalStateException("the native generator needs epoll channels, not " + c.getClass());
            }
            j.add(Integer.toString(u.fd().intValue()));
        }
        return j.toString();
    }

    private static String address(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
