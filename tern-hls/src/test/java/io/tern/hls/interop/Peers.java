package io.tern.hls.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real peers of tern-hls's interop tests: ffmpeg/ffprobe and Node with hls-parser. Outside CI
 * a missing peer skips the test; with {@code CI=true} it fails, so a CI machine without the
 * peers never passes silently.
 */
final class Peers {
    static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();

    /** A finished process: exit code, stdout and stderr. */
    record Run(int exit, String out, String err) {}

    private Peers() {}

    static void require(boolean available, String what) {
        if (available) {
            return;
        }
        String message = what + " is not installed; see tern-hls/README.md";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(message);
        }
        Assumptions.abort(message);
    }

    static void requireFfmpeg() {
        require(works("ffmpeg", "-version") && works("ffprobe", "-version"), "ffmpeg and ffprobe (apt: ffmpeg)");
    }

    static void requireHlsParser() {
        require(
                works("node", "--version") && Files.isDirectory(NODE_DIR.resolve("node_modules/hls-parser")),
                "node with hls-parser (npm ci in tern-hls/src/test/node)");
    }

    static boolean works(String... command) {
        try {
            return run(Path.of("."), List.of(command)).exit() == 0;
        } catch (IOException e) {
            return false;
        }
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
