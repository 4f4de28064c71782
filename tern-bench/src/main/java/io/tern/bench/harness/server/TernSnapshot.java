package io.tern.bench.harness.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A frozen copy of Tern's launcher, jar and runtime classpath, so that every run of a matrix
 * measures the same build.
 *
 * <p>The repository's {@code ./tern} rebuilds whenever any source file in the repository is
 * newer than its build stamp (test sources of other modules included). In a working tree that
 * other people edit and build, that meant a rebuild inside nearly every run: the run then hit
 * the ready timeout, or measured a build that changed between runs. The snapshot holds
 * {@code tern}, {@code tern-server/target/tern-server.jar}, {@code tern-server/target/lib/} and a
 * fresh stamp, and no sources, so the copied launcher never rebuilds and still starts the JVM
 * with its own flags.
 */
public final class TernSnapshot {
    private static final String JAR = "tern-server/target/tern-server.jar";
    private static final String LIB = "tern-server/target/lib";
    private static final String STAMP = "tern-server/target/.tern-build-stamp";
    private static final int ATTEMPTS = 3;

    private final Path launcher;
    private final String description;

    private TernSnapshot(Path launcher, String description) {
        this.launcher = launcher;
        this.description = description;
    }

    /** The copied launcher script. */
    public Path launcher() {
        return launcher;
    }

    /** Build identity for the results: jar SHA-256 prefix and the number of library jars. */
    public String description() {
        return description;
    }

    /**
     * Lets the repository's launcher build if it wants to (bounded by {@code buildTimeoutMs}),
     * then copies the build into {@code dir}. Retries when the build output vanished under us
     * (another build in the same tree removed {@code target/lib}).
     */
    public static TernSnapshot create(Path repoRoot, Path repoLauncher, Path dir, long buildTimeoutMs, Path log)
            throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            int exit = runBounded(List.of(repoLauncher.toString(), "--help"), repoRoot, log, buildTimeoutMs);
            if (exit != 0) {
                last = new IOException(
                        repoLauncher + " --help exited with " + exit + " (attempt " + attempt + "); see " + log);
                continue;
            }
            try {
                TernSnapshot s = copy(repoRoot, repoLauncher, dir);
                int check = runBounded(
                        List.of(s.launcher.toString(), "--help"),
                        dir,
                        log.resolveSibling(log.getFileName() + ".check"),
                        60_000);
                String out = Files.readString(log.resolveSibling(log.getFileName() + ".check"));
                if (check != 0 || out.contains("building")) {
                    throw new IOException(
                            "the snapshot launcher did not start cleanly (exit " + check + "); see " + log + ".check");
                }
                return s;
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    private static TernSnapshot copy(Path repoRoot, Path repoLauncher, Path dir) throws IOException {
        Path jar = repoRoot.resolve(JAR);
        Path lib = repoRoot.resolve(LIB);
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IOException("no Tern build at " + jar + " and " + lib);
        }
        deleteTree(dir);
        Path libCopy = dir.resolve(LIB);
        Files.createDirectories(libCopy);
        Files.copy(jar, dir.resolve(JAR), StandardCopyOption.COPY_ATTRIBUTES);
        List<Path> libs;
        try (Stream<Path> s = Files.list(lib)) {
            libs = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        if (libs.isEmpty()) {
            throw new IOException(lib + " holds no jars");
        }
        for (Path p : libs) {
            Files.copy(p, libCopy.resolve(p.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
        }
        Path launcher = dir.resolve(repoLauncher.getFileName());
        Files.copy(repoLauncher, launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(dir.resolve(STAMP), "");
        String sha = sha256(dir.resolve(JAR));
        return new TernSnapshot(
                launcher, "tern-server.jar sha256 " + sha.substring(0, 12) + ", " + libs.size() + " library jars");
    }

    private static int runBounded(List<String> command, Path workDir, Path log, long timeoutMs)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            return -1;
        }
        return p.exitValue();
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = new ArrayList<>(s.toList());
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.delete(all.get(i));
        }
    }

    static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The relay's main sources that differ from HEAD, as {@code git status --porcelain} lists them. */
    public static List<String> uncommittedMainSources(Path repoRoot) {
        return uncommittedMainSources(repoRoot, "tern-(stun|turn|transport|server)/src/main/.*");
    }

    /** Files matching {@code pathRegex} that differ from HEAD, as {@code git status --porcelain} lists them. */
    public static List<String> uncommittedMainSources(Path repoRoot, String pathRegex) {
        try {
            Process p = new ProcessBuilder("git", "-C", repoRoot.toString(), "status", "--porcelain", "--", ".")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            return out.lines()
                    .map(l -> l.length() > 3 ? l.substring(3) : l)
                    .filter(f -> f.matches(pathRegex))
                    .toList();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }
}
