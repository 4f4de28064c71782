package io.tern.netty.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.testkit.Await;
import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Real HTTP clients nobody here wrote (curl, nghttp, h2load), run as processes with bounded time.
 * A missing one skips the test locally and fails it with {@code CI=true}.
 */
final class Peers {
    private Peers() {}

    static Path require(String tool, String debianPackage) {
        return ExternalPeers.require(tool, debianPackage);
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
    static String readUntil(InputStream in, String expected, long timeoutMs) throws Exception {
        StringBuilder seen = new StringBuilder();
        byte[] buffer = new byte[4096];
        try {
            // Polls the client process's pipe: available() says whether a read would block.
            return Await.awaitValue(
                    "'" + expected + "' on the client's output",
                    Duration.ofMillis(timeoutMs),
                    Duration.ofMillis(5),
                    () -> {
                        while (in.available() > 0) {
                            int n = in.read(buffer);
                            if (n < 0) {
                                fail("stream ended before '" + expected + "'; read: " + seen);
                            }
                            seen.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                        }
                        return seen.toString().contains(expected) ? seen.toString() : null;
                    });
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + "; read: " + seen, timedOut);
        }
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }
}
