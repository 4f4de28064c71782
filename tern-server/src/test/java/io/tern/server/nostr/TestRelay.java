package io.tern.server.nostr;

import io.tern.nostr.engine.NostrCounters;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code tern nostr} with the given options, started in this JVM through the real command line, on loopback. */
public final class TestRelay implements AutoCloseable {
    private final NostrRelayLauncher.Running running;
    public final String startLine;

    private TestRelay(NostrRelayLauncher.Running running, String startLine) {
        this.running = running;
        this.startLine = startLine;
    }

    public static TestRelay start(Path dir, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "--listen",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                dir.resolve("relay.db").toString()));
        args.addAll(List.of(options));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        NostrRelayLauncher.Running[] started = new NostrRelayLauncher.Running[1];
        int exit = NostrCommand.commandLine(settings -> {
                    started[0] = NostrRelayLauncher.start(settings, new PrintStream(out, true, StandardCharsets.UTF_8));
                    return 0;
                })
                .execute(args.toArray(String[]::new));
        if (exit != 0 || started[0] == null) {
            throw new IllegalStateException("tern nostr " + args + " exited " + exit + ": " + out);
        }
        return new TestRelay(started[0], out.toString(StandardCharsets.UTF_8).trim());
    }

    public String url() {
        return "ws://127.0.0.1:" + running.server().port() + "/";
    }

    public NostrCounters counters() {
        return running.server().relay().counters();
    }

    /** The metrics endpoint's address (started with --prometheus). */
    public java.net.InetSocketAddress metricsAddress() {
        return running.metrics().address();
    }

    @Override
    public void close() {
        running.close();
    }
}
