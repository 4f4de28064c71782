package io.tern.bench.runner;

import io.tern.bench.load.Transport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Tern, started through its launcher ({@code ./tern turn ...}, or a snapshot of it), which must exec the JVM. */
final class Tern extends ServerKind {
    /**
     * Every load-generator client connects from 127.0.0.1, and Tern admits 64 TCP/TLS connections
     * per client IP by default, which failed the 128-client stream cells. coturn has no per-IP
     * bound, so equivalent settings lift Tern's to its default total bound (10000 connections),
     * which no cell comes near.
     */
    static final int STREAM_CONNECTIONS_PER_IP = 10_000;

    private final List<String> launcher;
    private final Path repoRoot;
    private final Set<Transport> transports;
    private final String build;
    /** Tern's {@code --udp-io}, or null for its default. */
    private final String udpIo;

    private String version;

    Tern(List<String> launcher, Path repoRoot, Set<Transport> transports, String build, String udpIo) {
        this.udpIo = udpIo;
        this.launcher = launcher;
        this.repoRoot = repoRoot;
        this.transports = transports;
        this.build = build;
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
            version = "tern " + Commands.gitShortHead(repoRoot) + " (" + build
                    + (udpIo == null ? "" : ", udp io " + udpIo) + ")";
        }
        return version;
    }

    @Override
    List<String> command(Settings s) {
        List<String> c = new ArrayList<>(launcher);
        c.addAll(commonOptions(s));
        c.addAll(List.of("--max-tcp-connections-per-ip", Integer.toString(STREAM_CONNECTIONS_PER_IP)));
        if (udpIo != null) {
            c.addAll(List.of("--udp-io", udpIo));
        }
        return c;
    }
}
