package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Real HTTP clients nobody here wrote (curl, nghttp, h2load), run as processes with bounded time.
 * A missing one skips the test locally and fails it with {@code CI=true}.
 */
final class Peers {
    private Peers() {}

    static Path require(String tool, String debianPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String message = tool + " is missing: apt-get install " + debianPackage + " (.ci/run does)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message + "; CI=true, so this fails instead of skipping");
        }
        assumeTrue(false, message);
        return null;
    }

    /** Runs to completion within {@code timeoutSeconds}; stdout and stderr together. */
    static String run(int timeoutSeconds, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> output[0] = readAll(process.getInputStream()));
        reader.start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        String text = output[0] == null ? "" : new String(output[0], StandardCharsets.UTF_8);
        assertThat(finished)
                .as("%s finished within %d s; output:%n%s", command[0], timeoutSeconds, text)
                .isTrue();
        return text;
    }

    /** Starts a client that the test reads from and ends. */
    static Process start(String... command) throws IOException {
        return new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /** Reads {@code in} until {@code expected} appeared, within {@code timeoutMs}; returns what was read. */
    static String readUntil(InputStream in, String expected, long timeoutMs) throws IOException, InterruptedException {
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        byte[] buffer = new byte[4096];
        while (!seen.toString().contains(expected)) {
            if (System.nanoTime() > deadline) {
                fail("did not read '" + expected + "' within " + timeoutMs + " ms; read: " + seen);
            }
            if (in.available() > 0) {
                int n = in.read(buffer);
                if (n < 0) {
                    fail("stream ended before '" + expected + "'; read: " + seen);
                }
                seen.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
            } else {
                Thread.sleep(5); // polling a client process's pipe, not waiting for a timer
            }
        }
        return seen.toString();
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
