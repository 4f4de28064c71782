package io.tern.netty.rtmp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a peer with a time bound; its output goes to files so a chatty peer never blocks. */
final class Processes {
    record Result(int exitCode, String stdout, String stderr) {}

    private Processes() {}

    static Process start(List<String> command, Path dir, String name) throws IOException {
        return new ProcessBuilder(command)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile())
                .start();
    }

    /** Waits for {@code process} at most {@code timeout}; a process still running then is killed and fails the test. */
    static Result finish(Process process, Path dir, String name, Duration timeout)
            throws IOException, InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(name + " did not finish within " + timeout + ": " + read(dir, name + ".err"));
        }
        return new Result(process.exitValue(), read(dir, name + ".out"), read(dir, name + ".err"));
    }

    static Result run(List<String> command, Path dir, String name, Duration timeout)
            throws IOException, InterruptedException {
        return finish(start(command, dir, name), dir, name, timeout);
    }

    private static String read(Path dir, String file) throws IOException {
        Path path = dir.resolve(file);
        return Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
    }
}
