package io.tern.netty.websocket.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A peer process whose stdout and stderr lines are collected; always destroyed on close. */
final class PeerProcess implements AutoCloseable {
    private static final String EOF = "\u0000eof";

    private final Process process;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();

    PeerProcess(Path workingDir, List<String> command) throws IOException {
        process = new ProcessBuilder(command)
                .directory(workingDir.toFile())
                .redirectErrorStream(true)
                .start();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = r.readLine(); line != null; line = r.readLine()) {
                            lines.add(line);
                        }
                    } catch (IOException ignored) {
                        // The process went away; EOF below tells the waiter.
                    }
                    lines.add(EOF);
                },
                "peer-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for a line starting with {@code prefix} and returns it. */
    String awaitLine(String prefix, long timeoutMs) throws InterruptedException, TimeoutException {
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long leftNs = deadlineNs - System.nanoTime();
            String line = leftNs > 0 ? lines.poll(leftNs, TimeUnit.NANOSECONDS) : null;
            if (line == null || line.equals(EOF)) {
                throw new TimeoutException("no line starting with '" + prefix + "'; output so far: " + transcript);
            }
            transcript.add(line);
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    int awaitExit(long timeoutMs) throws InterruptedException, TimeoutException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new TimeoutException("peer still running; output: " + transcript);
        }
        return process.exitValue();
    }

    List<String> transcript() {
        return transcript;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
