package io.tern.bench.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Short helper commands the runners call (versions, git), bounded in time. */
public final class Commands {
    private Commands() {}

    /** The repository's HEAD as a short hash, or "unknown". */
    public static String gitShortHead(java.nio.file.Path repoRoot) {
        return firstLine(List.of("git", "-C", repoRoot.toString(), "rev-parse", "--short", "HEAD"));
    }

    /** The first line the command prints (stdout and stderr), or "unknown"; bounded by 20 s. */
    public static String firstLine(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "unknown";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return out.isEmpty()
                    ? "unknown"
                    : out.lines().findFirst().orElse("unknown").trim();
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
