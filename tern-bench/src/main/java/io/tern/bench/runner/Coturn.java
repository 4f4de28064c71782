package io.tern.bench.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
            version = "coturn " + firstLine(List.of(binary, "--version"));
        }
        return version;
    }

    static String firstLine(List<String> command) {
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
