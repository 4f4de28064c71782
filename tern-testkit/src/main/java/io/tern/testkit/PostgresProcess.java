package io.tern.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL 15 cluster of a test's own: {@code initdb} into a fresh directory, then
 * {@code postgres} on a free loopback port, never the system service. initdb refuses to run as
 * root, so as root every PostgreSQL binary runs as the {@code postgres} user ({@code setpriv},
 * which execs, so the child's PID is the postmaster's) on a directory that user owns. Connections
 * over TCP need the password ({@link #password()}, SCRAM); the superuser is {@link #user()}.
 * {@link #kill()} and {@link #restart()} let a test take the database away under load. Missing
 * binaries skip the test, or fail it with {@code CI=true}.
 */
public final class PostgresProcess implements AutoCloseable {
    /** Debian's postgresql-15 binaries. */
    public static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private static final String USER = "tern";
    private static final String PASSWORD = "tern-test-password";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final Path data;
    private final int port;
    private final Path log;
    private Process postmaster;

    private PostgresProcess(Path dir, int port) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.log = dir.resolve("postgres.log");
    }

    /** Creates a cluster in a new temporary directory and starts it on a free loopback port. */
    public static PostgresProcess start() throws Exception {
        ExternalPeers.requireAt(BIN.resolve("initdb"), "postgresql");
        ExternalPeers.requireAt(BIN.resolve("postgres"), "postgresql");
        Path dir = Files.createTempDirectory("tern-pg");
        PostgresProcess pg = new PostgresProcess(dir, freePort());
        try {
            pg.init();
            pg.launch();
        } catch (Exception | AssertionError e) {
            pg.close();
            throw e;
        }
        return pg;
    }

    public int port() {
        return port;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return PASSWORD;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/DATABASE}, without credentials. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** {@code postgresql://tern@127.0.0.1:PORT/DATABASE}: the form {@code tern nostr --db} takes. */
    public String url(String database) {
        return "postgresql://" + USER + "@127.0.0.1:" + port + "/" + database;
    }

    /** The postmaster's PID while it runs. */
    public long pid() {
        return postmaster.pid();
    }

    /** Creates an empty database (a test's own, so tests sharing a cluster do not see each other's rows). */
    public void createDatabase(String name) throws Exception {
        psql("postgres", "CREATE DATABASE \"" + name + "\"");
    }

    /** Runs {@code sql} with psql as the superuser; fails with psql's output when it exits non-zero. */
    public String psql(String database, String sql) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        BIN.resolve("psql").toString(),
                        "-X",
                        "-q",
                        "-A",
                        "-t",
                        "-v",
                        "ON_ERROR_STOP=1",
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-U",
                        USER,
                        "-d",
                        database,
                        "-c",
                        sql)
                .redirectErrorStream(true);
        pb.environment().put("PGPASSWORD", PASSWORD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("psql " + sql + " failed: " + out);
        }
        return out.strip();
    }

    /** Fast shutdown (SIGINT: open sessions are cut, the cluster checkpoints) and waits for the exit. */
    public void stop() throws Exception {
        if (postmaster == null || !postmaster.isAlive()) {
            return;
        }
        List<ProcessHandle> children = postmaster.descendants().toList();
        new ProcessBuilder("kill", "-INT", Long.toString(postmaster.pid()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor(10, TimeUnit.SECONDS);
        if (!postmaster.waitFor(30, TimeUnit.SECONDS)) {
            postmaster.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        awaitGone(children);
    }

    /**
     * SIGKILL to the postmaster, as a crash would: sessions drop without an answer. Waits until its
     * backends, which notice the postmaster's death, are gone too, so that a restart can take the
     * shared memory and the port again.
     */
    public void kill() throws Exception {
        List<ProcessHandle> children = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        if (!postmaster.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("postgres " + postmaster.pid() + " did not die on SIGKILL");
        }
        for (ProcessHandle child : children) {
            child.destroyForcibly();
        }
        awaitGone(children);
    }

    /** Starts the same cluster again on the same port (after {@link #kill} or {@link #stop}); crash recovery runs. */
    public void restart() throws Exception {
        if (postmaster != null && postmaster.isAlive()) {
            throw new IllegalStateException("postgres is still running as " + postmaster.pid());
        }
        launch();
    }

    /** The server's log so far, for a failing test's message. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void init() throws Exception {
        Files.createDirectories(data);
        Path pwfile = dir.resolve("pwfile");
        Files.writeString(pwfile, PASSWORD + "\n");
        chownToPostgres();
        run(
                asPostgres(List.of(
                        BIN.resolve("initdb").toString(),
                        "-D",
                        data.toString(),
                        "-U",
                        USER,
                        "--pwfile=" + pwfile,
                        "--auth-local=trust",
                        "--auth-host=scram-sha-256",
                        "-E",
                        "UTF8",
                        "--locale=C",
                        "--no-sync")),
                Duration.ofSeconds(120));
    }

    private void launch() throws Exception {
        List<String> command = asPostgres(List.of(
                BIN.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-p",
                Integer.toString(port),
                "-k",
                dir.toString(),
                "-c",
                "listen_addresses=127.0.0.1",
                // A test cluster: speed over durability of the machine (a killed postmaster still
                // recovers everything committed, since the OS keeps the written pages).
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=on",
                "-c",
                "full_page_writes=off",
                "-c",
                "max_connections=100",
                "-c",
                "shared_buffers=32MB"));
        postmaster = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        Await.await(
                "postgres accepting connections on 127.0.0.1:" + port,
                START_TIMEOUT,
                Duration.ofMillis(50),
                this::ready,
                this::log);
    }

    private boolean ready() throws Exception {
        if (!postmaster.isAlive()) {
            throw new AssertionError("postgres exited with " + postmaster.exitValue() + ": " + log());
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        } catch (IOException notYet) {
            return false;
        }
        return ExternalPeers.runs(
                BIN.resolve("pg_isready").toString(), "-q", "-h", "127.0.0.1", "-p", Integer.toString(port));
    }

    private static void awaitGone(List<ProcessHandle> processes) throws Exception {
        Await.await(
                "postgres backends " + processes + " exiting",
                Duration.ofSeconds(30),
                () -> processes.stream().noneMatch(ProcessHandle::isAlive));
    }

    private static boolean root() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static List<String> asPostgres(List<String> command) {
        if (!root()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(
                List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--reset-env", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private void chownToPostgres() throws Exception {
        if (root()) {
            run(List.of("chown", "-R", "postgres:postgres", dir.toString()), Duration.ofSeconds(30));
        }
    }

    private static void run(List<String> command, Duration timeout) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + timeout);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " exited with " + p.exitValue() + ": " + out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops the cluster and deletes its directory. */
    @Override
    public void close() throws Exception {
        try {
            stop();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
