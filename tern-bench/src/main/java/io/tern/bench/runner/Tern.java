package io.tern.bench.runner;

import io.tern.bench.load.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Tern, started through the repository's launcher ({@code ./tern turn ...}), which must exec the JVM. */
final class Tern extends ServerKind {
    private final List<String> launcher;
    private final Path repoRoot;
    private final Set<Transport> transports;
    private String version;

    Tern(List<String> launcher, Path repoRoot, Set<Transport> transports) {
        this.launcher = launcher;
        this.repoRoot = repoRoot;
        this.transports = transports;
    }

    @Override
    String name() {
        return "tern";
    }

    @Override
    boolean supports(Transport t) {
        return transports.contains(t);
    }

    @Override
    synchronized String version() {
        if (version == null) {
            String sha = Coturn.firstLine(List.of("git", "-C", repoRoot.toString(), "rev-parse", "--short", "HEAD"));
            version = "tern " + sha;
        }
        return version;
    }

    @Override
    List<String> command(Settings s) {
        List<String> c = new ArrayList<>(launcher);
        c.addAll(commonOptions(s));
        return c;
    }
}
