package io.tern.bench.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** coturn's turnserver, configured only from the command line and a per-run empty config file. */
final class Coturn extends ServerKind {
    private final String binary;
    private String version;

    Coturn(String binary) {
        this.binary = binary;
    }

    @Override
    String name() {
        return "coturn";
    }

    @Override
    synchronized String version() {
        if (version == null) {
            version = "coturn " + Commands.firstLine(List.of(binary, "--version"));
        }
        return version;
    }

    @Override
    List<String> command(Settings s) {
        Path conf = s.runDir().resolve("turnserver.conf");
        try {
            Files.writeString(conf, "# intentionally empty: every option is on the command line\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> c = new ArrayList<>(List.of(
                binary,
                "-c",
                conf.toString(),
                "--pidfile",
                s.runDir().resolve("turnserver.pid").toString(),
                "--userdb",
                s.runDir().resolve("turndb").toString(),
                "--no-stdout-log",
                "--log-file",
                s.runDir().resolve("turnserver.log").toString(),
                "--simple-log",
                "--no-cli",
                "--no-dtls"));
        c.addAll(commonOptions(s));
        return c;
    }
}
