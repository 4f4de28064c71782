package io.tern.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the real peers interop tests run against (coturn's tools, ffmpeg, chromium, node, nginx,
 * srt-live-transmit, GStreamer, ...). A missing peer skips its test, except with {@code CI=true},
 * where it fails it: a CI machine without the peers can never pass silently. The message names the
 * peer and what installs it.
 */
public final class ExternalPeers {
    private ExternalPeers() {}

    /** Whether this run is CI's ({@code CI=true}), where a missing peer is a failure. */
    public static boolean ci() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** {@code tool} on the PATH, or in /usr/sbin or /sbin (nginx lives there, often off a user's PATH). */
    public static Optional<Path> find(String tool) {
        List<String> dirs =
                new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(List.of("/usr/sbin", "/sbin"));
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** {@code tool} on the PATH, or the test skips (fails under CI) naming the Debian package. */
    public static Path require(String tool, String debianPackage) {
        Optional<Path> found = find(tool);
        if (found.isEmpty()) {
            missing(tool, "apt-get install " + debianPackage);
        }
        return found.orElseThrow();
    }

    /** An executable at a fixed place (a tool outside the PATH, such as /usr/sbin/nginx). */
    public static Path requireAt(Path executable, String debianPackage) {
        if (!Files.isExecutable(executable)) {
            missing(executable.toString(), "apt-get install " + debianPackage);
        }
        return executable;
    }

    /**
     * A peer that is more than one file (a plugin set, a module, an npm package): {@code available}
     * says whether it is there, {@code install} how to get it.
     */
    public static void require(boolean available, String peer, String install) {
        if (!available) {
            missing(peer, install);
        }
    }

    /** Whether {@code command} runs and exits 0 within 30 s (a version probe, an import check). */
    public static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void missing(String peer, String install) {
        String message = peer + " is missing: " + install + " (.ci/run does)";
        if (ci()) {
            fail(message + "; CI=true, so this fails instead of skipping");
        }
        Assumptions.abort(message);
    }
}
