package io.tern.bench.nostr;

import io.tern.bench.harness.sample.Host;
import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.load.Json;
import io.tern.netty.websocket.WebSocketClient;
import io.tern.nostr.crypto.Secp256k1JniVerifier;
import io.tern.websocket.engine.WebSocketConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Nostr relay benchmark: Tern (at each {@code --tern-threads}) and a Node relay from npm,
 * each started fresh, run through the same phases in the same run, on loopback. See
 * bench/nostr/README.md.
 */
@Command(
        name = "nostr-bench",
        mixinStandardHelpOptions = true,
        description = "Tern's Nostr relay against a Node relay.")
public final class NostrBench implements Callable<Integer> {
    private static final long READY_TIMEOUT_MS = 180_000;

    @Option(names = "--repo-root", required = true, description = "The repository (for ./tern and bench/nostr).")
    Path root;

    @Option(names = "--servers", split = ",", description = "tern, node. Default: ${DEFAULT-VALUE}.")
    List<String> servers = List.of("tern", "node");

    @Option(names = "--tern-threads", split = ",", description = "Tern's --threads values. Default: ${DEFAULT-VALUE}.")
    List<Integer> ternThreads = List.of(1, 2);

    @Option(
            names = "--events",
            description = "Events ingested (and stored for the REQ phase). Default: ${DEFAULT-VALUE}.")
    int events = 100_000;

    @Option(names = "--ingest-connections", description = "Default: ${DEFAULT-VALUE}.")
    int ingestConnections = 8;

    @Option(names = "--window", description = "Unanswered EVENTs per ingest connection. Default: ${DEFAULT-VALUE}.")
    int window = 100;

    @Option(names = "--reqs", description = "Measured REQs (after 100 warm-up). Default: ${DEFAULT-VALUE}.")
    int reqs = 1000;

    @Option(names = "--limit", description = "The REQs' limit. Default: ${DEFAULT-VALUE}.")
    int limit = 500;

    @Option(names = "--subscribers", description = "Fan-out subscribers. Default: ${DEFAULT-VALUE}.")
    int subscribers = 1000;

    @Option(
            names = "--fanout-events",
            description = "Ephemeral events fanned out (the first 20 warm up). Default: ${DEFAULT-VALUE}.")
    int fanoutEvents = 200;

    @Option(names = "--fanout-interval-ms", description = "Between fan-out events. Default: ${DEFAULT-VALUE}.")
    int fanoutIntervalMs = 100;

    @Option(names = "--idle", description = "Idle connections for the memory phase. Default: ${DEFAULT-VALUE}.")
    int idle = 10_000;

    @Option(
            names = "--phases",
            split = ",",
            description = "ingest, req (needs ingest), fanout, memory. Default: ${DEFAULT-VALUE}.")
    List<String> phases = List.of("ingest", "req", "fanout", "memory");

    @Option(
            names = "--tern-db-sync",
            description =
                    "Tern's --db-sync (the Node relay's SQLite runs WAL with synchronous NORMAL). Default: ${DEFAULT-VALUE}.")
    String ternDbSync = "full";

    @Option(names = "--name", description = "Results file name (without extension). Default: the date and time.")
    String name;

    @Option(names = "--out", description = "Results directory. Default: bench/nostr/results.")
    Path out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new NostrBench())
                .setOverwrittenOptionsAllowed(true)
                .execute(args));
    }

    /** One relay configuration under test. */
    private record Subject(String label, String kind, int threads) {}

    @Override
    public Integer call() throws Exception {
        Path results = out != null ? out : root.resolve("bench/nostr/results");
        Files.createDirectories(results);
        String runName =
                name != null ? name : Instant.now().toString().replace(':', '-').substring(0, 19);
        Secp256k1JniVerifier secp = Secp256k1JniVerifier.load();
        long now = System.currentTimeMillis() / 1000;
        List<SignedEvents.Author> authors = SignedEvents.authors(secp, SignedEvents.AUTHORS, 1);
        long signStart = System.nanoTime();
        List<byte[]> notes = phases.contains("ingest") ? SignedEvents.notes(secp, authors, events, now) : List.of();
        System.out.printf(
                "signed %d events in %.1f s (not counted)%n", notes.size(), (System.nanoTime() - signStart) / 1e9);

        List<Subject> subjects = new ArrayList<>();
        for (String server : servers) {
            if (server.equals("tern")) {
                for (int threads : ternThreads) {
                    subjects.add(new Subject("Tern (--threads " + threads + ")", "tern", threads));
                }
            } else if (server.equals("node")) {
                subjects.add(new Subject("Node @nostr-relay/core 0.0.40", "node", 1));
            } else {
                throw new CommandLine.ParameterException(new CommandLine(this), "unknown server " + server);
            }
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("name", runName);
        run.put("started", Instant.now().toString());
        run.put("loadAverageBefore", Host.loadAverages());
        run.put("cpu", Host.cpuModel());
        run.put("cores", Runtime.getRuntime().availableProcessors());
        run.put(
                "settings",
                events + " events over " + ingestConnections + " connections, " + window
                        + " unanswered each; " + reqs + " REQs limit " + limit + "; " + subscribers + " subscribers, "
                        + fanoutEvents + " ephemeral events every " + fanoutIntervalMs + " ms; " + idle
                        + " idle connections; Tern --db-sync " + ternDbSync + ", rate limits off");
        run.put(
                "generator",
                "one JVM, Tern's WebSocket client (Netty epoll, 2 event loops), events pre-signed with libsecp256k1");
        Map<String, Object> bySubject = new LinkedHashMap<>();
        try (WebSocketClient client =
                new WebSocketClient(2, WebSocketConfig.defaults().withLimits(1 << 24, 1 << 24))) {
            for (Subject subject : subjects) {
                System.out.println("== " + subject.label());
                bySubject.put(subject.label(), measure(subject, client, secp, authors, notes, now));
                System.out.println(bySubject.get(subject.label()));
            }
        }
        run.put("loadAverageAfter", Host.loadAverages());
        run.put("results", bySubject);
        String json = Json.write(run);
        Files.writeString(results.resolve(runName + ".json"), json + "\n", StandardCharsets.UTF_8);
        Files.writeString(results.resolve(runName + ".md"), Report.markdown(run, bySubject), StandardCharsets.UTF_8);
        System.out.println("results: " + results.resolve(runName + ".md"));
        return 0;
    }

    private Map<String, Object> measure(
            Subject subject,
            WebSocketClient client,
            Secp256k1JniVerifier secp,
            List<SignedEvents.Author> authors,
            List<byte[]> notes,
            long now)
            throws Exception {
        Map<String, Object> phases = new LinkedHashMap<>();
        boolean greets = subject.kind().equals("tern");
        Path dir = Files.createTempDirectory("tern-nostr-bench");
        try {
            int port = FreePorts.any();
            try (ServerProcess relay = start(subject, dir, "main", port)) {
                URI uri = URI.create("ws://127.0.0.1:" + port + "/");
                if (this.phases.contains("ingest")) {
                    phases.put(
                            "ingest", NostrPhases.ingest(client, uri, greets, relay, notes, ingestConnections, window));
                }
                if (this.phases.contains("req")) {
                    phases.put(
                            "req", NostrPhases.reqLatency(client, uri, greets, relay, authors, now, 100, reqs, limit));
                }
                if (this.phases.contains("fanout")) {
                    phases.put(
                            "fanout",
                            NostrPhases.fanout(
                                    client,
                                    uri,
                                    greets,
                                    relay,
                                    secp,
                                    authors.get(0),
                                    subscribers,
                                    fanoutEvents,
                                    20,
                                    fanoutIntervalMs));
                }
            }
            if (this.phases.contains("memory")) {
                int idlePort = FreePorts.any();
                try (ServerProcess relay = start(subject, dir, "idle", idlePort)) {
                    URI uri = URI.create("ws://127.0.0.1:" + idlePort + "/");
                    phases.put("memory", NostrPhases.idleMemory(client, uri, greets, relay, idle));
                }
            }
        } catch (Exception e) {
            phases.put("error", e.toString());
            System.out.println(subject.label() + " failed: " + e);
        } finally {
            deleteTree(dir);
        }
        return phases;
    }

    /**
     * The relay under test, started fresh as its own process: Tern's launcher execs java, the Node
     * relay is node itself, so the PID sampled is the relay's. Tern's launcher may build first.
     */
    private ServerProcess start(Subject subject, Path dir, String db, int port)
            throws IOException, InterruptedException {
        Path file = dir.resolve(db + ".db");
        List<String> command = subject.kind().equals("tern")
                ? List.of(
                        root.resolve("tern").toString(),
                        "nostr",
                        "--listen",
                        "127.0.0.1",
                        "--port",
                        Integer.toString(port),
                        "--db",
                        file.toString(),
                        "--threads",
                        Integer.toString(subject.threads()),
                        // One address sends everything here: the per-address limits would measure themselves.
                        "--events-per-second-per-ip",
                        "0",
                        "--events-per-second-per-pubkey",
                        "0",
                        "--reqs-per-second-per-ip",
                        "0",
                        "--max-connections-per-ip",
                        "20000",
                        "--db-sync",
                        ternDbSync)
                : List.of(
                        "node",
                        root.resolve("bench/nostr/node-relay/relay.mjs").toString(),
                        Integer.toString(port),
                        file.toString());
        return ServerProcess.start(
                command,
                root,
                dir.resolve(db + ".log"),
                () -> ServerProcess.accepts(port),
                subject.label() + " listening on port " + port,
                READY_TIMEOUT_MS);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
