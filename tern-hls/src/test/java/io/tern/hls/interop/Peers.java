package io.tern.hls.interop;

import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real peers of tern-hls's interop tests: ffmpeg/ffprobe and Node with hls-parser, found
 * through {@link ExternalPeers} (a missing one skips, or fails with {@code CI=true}).
 */
final class Peers {
    static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();

    /** A finished process: exit code, stdout and stderr. */
    record Run(int exit, String out, String err) {}

    private Peers() {}

    static void requireFfmpeg() {
        ExternalPeers.require("ffmpeg", "ffmpeg");
        ExternalPeers.require("ffprobe", "ffmpeg");
    }

    static void requireHlsParser() {
        ExternalPeers.require("node", "nodejs");
        ExternalPeers.require(
                Files.isDirectory(NODE_DIR.resolve("node_modules/hls-parser")),
                "node's hls-parser",
                "npm ci in tern-hls/src/test/node");
    }

    /** Runs a command to completion (bounded at two minutes), capturing both streams. */
    static Run run(Path dir, List<String> command) throws IOException {
        Path out = Files.createTempFile("tern-hls-peer", ".out");
        Path err = Files.createTempFile("tern-hls-peer", ".err");
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command))
                    .directory(dir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + command);
            }
            return new Run(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
