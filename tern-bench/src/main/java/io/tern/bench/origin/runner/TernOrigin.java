package io.tern.bench.origin.runner;

import io.tern.bench.runner.Commands;
import io.tern.bench.runner.ServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Tern's origin, {@code ./tern origin} (or a frozen snapshot of that launcher), with 1 s segments
 * and 200 ms parts, listening on 127.0.0.1 only, publishing without a token.
 */
final class TernOrigin extends Origin {
    private final List<String> launcher;
    private final Path repoRoot;
    private final String build;
    private final int segmentTargetMs;
    private final int partTargetMs;
    private final List<String> extraArgs;
    private String version;

    TernOrigin(
            List<String> launcher,
            Path repoRoot,
            String build,
            int segmentTargetMs,
            int partTargetMs,
            List<String> extraArgs) {
        this.launcher = launcher;
        this.repoRoot = repoRoot;
        this.build = build;
        this.segmentTargetMs = segmentTargetMs;
        this.partTargetMs = partTargetMs;
        this.extraArgs = extraArgs;
    }

    @Override
    String name() {
        return "tern";
    }

    @Override
    synchronized String version() {
        if (version == null) {
            String sha = Commands.firstLine(List.of("git", "-C", repoRoot.toString(), "rev-parse", "--short", "HEAD"));
            version = "tern " + sha + " (" + build + ")";
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
        c.addAll(extraArgs);
        return c;
    }

    @Override
    ServerProcess start(Ports ports, long readyTimeoutMs) throws IOException, InterruptedException {
        return ServerProcess.start(
                command(ports),
                ports.runDir(),
                ports.runDir().resolve("stdout.log"),
                () -> ServerProcess.accepts(ports.httpPort()),
                "HTTP port " + ports.httpPort(),
                readyTimeoutMs);
    }
}
