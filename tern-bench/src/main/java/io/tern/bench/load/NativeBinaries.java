package io.tern.bench.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's C programs (tern-bench/src/main/c: the turnload generator and the minifwd
 * forwarder), compiled with gcc into tern-bench/target/native when missing or older than their
 * source.
 */
public final class NativeBinaries {
    private NativeBinaries() {}

    /** The binary built from {@code tern-bench/src/main/c/<name>.c} under {@code repoRoot}. */
    public static synchronized Path build(Path repoRoot, String name) throws IOException, InterruptedException {
        Path source = repoRoot.resolve("tern-bench/src/main/c").resolve(name + ".c");
        if (!Files.isRegularFile(source)) {
            throw new IOException("no C source " + source);
        }
        Path dir = repoRoot.resolve("tern-bench/target/native");
        Path binary = dir.resolve(name);
        if (Files.isExecutable(binary)
                && Files.getLastModifiedTime(binary).compareTo(Files.getLastModifiedTime(source)) > 0) {
            return binary;
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(name + ".tmp");
        Process p = new ProcessBuilder(List.of("gcc", "-O2", "-Wall", "-o", tmp.toString(), source.toString()))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("gcc failed for " + source + ":\n" + out);
        }
        Files.move(tmp, binary, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return binary;
    }
}
