package io.tern.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} of the test's own: a free loopback port, its own directory, no
 * persistence, never the system service. A missing redis-server skips the test, or fails it with
 * {@code CI=true} ({@link ExternalPeers}). {@link #kill()} and {@link #restart()} let a test take
 * Redis away and bring it back, empty, on the same port.
 */
public final class RedisProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path executable;
    private final Path dir;
    private final int port;
    private Process process;

    private RedisProcess(Path executable, Path dir, int port) {
        this.executable = executable;
        this.dir = dir;
        this.port = port;
    }

    /** Starts redis-server on a free loopback port and waits until it answers PING. */
    public static RedisProcess start() throws Exception {
        Path executable = ExternalPeers.require("redis-server", "redis-server");
        Path dir = Files.createTempDirectory("tern-redis-");
        RedisProcess redis = new RedisProcess(executable, dir, freePort());
        redis.launch();
        return redis;
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** kill -9: Redis vanishes at once, its data with it. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Starts it again, empty, on the same port. */
    public void restart() throws Exception {
        if (process.isAlive()) {
            kill();
        }
        launch();
    }

    /**
     * Sends one command (inline form, words without spaces) and returns Redis's reply as text, for
     * tests that plant or inspect values; null when Redis does not answer.
     */
    public String command(String... words) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            socket.setSoTimeout(2000);
            StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
            for (String word : words) {
                byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
                request.append('$')
                        .append(bytes.length)
                        .append("\r\n")
                        .append(word)
                        .append("\r\n");
            }
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
            byte[] buffer = new byte[65536];
            int n = socket.getInputStream().read(buffer);
            return n <= 0 ? null : new String(buffer, 0, n, StandardCharsets.UTF_8);
        }
    }

    private void launch() throws Exception {
        process = new ProcessBuilder(List.of(
                        executable.toString(),
                        "--port",
                        Integer.toString(port),
                        "--bind",
                        "127.0.0.1",
                        "--dir",
                        dir.toString(),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--daemonize",
                        "no",
                        "--protected-mode",
                        "yes"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        Await.await("redis-server answers PING on port " + port, START_TIMEOUT, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
            }
            try {
                String reply = command("PING");
                return reply != null && reply.startsWith("+PONG");
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
