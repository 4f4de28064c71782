package io.tern.bench.origin.runner;

import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.runner.Commands;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Tern's origin, {@code ./tern origin} (or a frozen snapshot of that launcher), with 1 s segments
 * and 200 ms parts, listening on 127.0.0.1 only, publishing without a token.
 */
final class TernOrigin extends Origin {
    /**
     * Every viewer of the benchmark connects from 127.0.0.1, and Tern bounds connections and held
     * requests per client IP (256 and 512 by default), which would refuse most of a large cell.
     * nginx has no such bound, so equivalent settings lift Tern's above anything a cell needs
     * (4000 viewers of two renditions: 16,000 connections, up to four held requests each:
     * a blocking reload and a preload hint per rendition).
     */
    static final List<String> LOOPBACK_LIMITS = List.of(
            "--max-http-connections", "20000",
            "--max-http-connections-per-ip", "20000",
            "--max-held-requests", "20000",
            "--max-held-requests-per-ip", "20000");

    private final List<String> launcher;
    private final Path repoRoot;
    private final String build;
    private final int segmentTargetMs;
    private final int partTargetMs;
    private final List<String> extraArgs;
    private final Path profiler;
    private String version;

    TernOrigin(
            List<String> launcher,
            Path repoRoot,
            String build,
            int segmentTargetMs,
            int partTargetMs,
            List<String> extraArgs,
            Path profiler) {
        this.launcher = launcher;
        this.repoRoot = repoRoot;
        this.build = build;
        this.segmentTargetMs = segmentTargetMs;
        this.partTargetMs = partTargetMs;
        this.extraArgs = extraArgs;
        this.profiler = profiler;
    }

    @Override
    String name() {
        return "tern";
    }

    @Override
    synchronized String version() {
        if (version == null) {
            version = "tern " + Commands.gitShortHead(repoRoot) + " (" + build + ")";
        }
        return version;
    }

    @Override
    String entryPath() {
        return "/" + APP + "/" + STREAM + "/index.m3u8";
    }

    @Override
    List<String> command(Ports ports) {
        List<String> c = new ArrayList<>(launcher);
        c.addAll(List.of(
                "--listen",
                "127.0.0.1",
                "--rtmp-port",
                Integer.toString(ports.rtmpPort()),
                "--http-port",
                Integer.toString(ports.httpPort()),
                "--segment-target-ms",
                Integer.toString(segmentTargetMs),
                "--part-target-ms",
                Integer.toString(partTargetMs),
                "--no-publish-auth"));
        c.addAll(LOOPBACK_LIMITS);
        c.addAll(extraArgs);
        return c;
    }

    /**
     * With a profiler, async-profiler is loaded into Tern's JVM through {@code JAVA_TOOL_OPTIONS}
     * (the launcher's own flags stay), sampling CPU (kernel stacks too) from start-up to exit,
     * and writes a flame graph into the run directory when the server stops.
     */
    Map<String, String> environment(Ports ports) {
        if (profiler == null) {
            return Map.of();
        }
        return Map.of(
                "JAVA_TOOL_OPTIONS",
                "-agentpath:" + profiler + "=start,event=cpu,interval=1ms,file="
                        + ports.runDir().resolve("tern-cpu.html"));
    }

    @Override
    ServerProcess start(Ports ports, long readyTimeoutMs) throws IOException, InterruptedException {
        return ServerProcess.start(
                command(ports),
                environment(ports),
                ports.runDir(),
                ports.runDir().resolve("stdout.log"),
                () -> ServerProcess.accepts(ports.httpPort()),
                "HTTP port " + ports.httpPort(),
                readyTimeoutMs);
    }
}
