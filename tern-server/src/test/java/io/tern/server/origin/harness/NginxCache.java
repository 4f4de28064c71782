package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.fail;

import io.tern.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's nginx as a caching reverse proxy ({@code proxy_cache}, {@code proxy_cache_lock}) in
 * front of an origin port, from {@code src/test/origin/nginx/tern-cache.conf}: its own config
 * file, prefix, pid file, temp and cache directories and a free loopback port; never the system
 * service. {@link #close()} ends the master process this fixture started, by its PID.
 */
public final class NginxCache implements AutoCloseable {
    public static final Path TEMPLATE = Harness.ORIGIN_DIR.resolve("nginx/tern-cache.conf");
    private static final Pattern WRITING = Pattern.compile("Writing: (\\d+)");
    private static final Pattern ACTIVE = Pattern.compile("Active connections: (\\d+)");

    private final Path prefix;
    private final int port;
    private final Process process;
    private final HttpClient status = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private NginxCache(Path prefix, int port, Process process) {
        this.prefix = prefix;
        this.port = port;
        this.process = process;
    }

    public static void require() {
        Harness.require("the nginx cache harness", Harness.program("nginx", "nginx"));
    }

    /** Starts nginx in front of {@code 127.0.0.1:originPort} and waits until it accepts connections. */
    public static NginxCache start(int originPort) throws Exception {
        require();
        Path prefix = Files.createTempDirectory("tern-nginx");
        int port = Harness.freePort();
        boolean root = "root".equals(System.getProperty("user.name"));
        String config = Files.readString(TEMPLATE)
                // As root, workers would switch to nobody, who cannot enter this private directory.
                .replace("@USER@", root ? "user root root;" : "")
                .replace("@PREFIX@", prefix.toString())
                .replace("@PORT@", Integer.toString(port))
                .replace("@ORIGIN_PORT@", Integer.toString(originPort));
        Path conf = prefix.resolve("nginx.conf");
        Files.writeString(conf, config);
        Path nginx = Harness.onPath("nginx");
        Process process = new ProcessBuilder(
                        nginx.toString(),
                        "-p",
                        prefix.toString(),
                        "-e",
                        prefix.resolve("error.log").toString(),
                        "-c",
                        conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(prefix.resolve("stdout.log").toFile())
                .start();
        NginxCache cache = new NginxCache(prefix, port, process);
        cache.awaitListening();
        return cache;
    }

    private void awaitListening() throws Exception {
        try {
            Await.await("nginx listening on " + port, Duration.ofSeconds(15), () -> {
                if (!process.isAlive()) {
                    fail("nginx exited with " + process.exitValue() + ": " + log("stdout.log") + log("error.log"));
                }
                try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    return true;
                } catch (IOException notYet) {
                    return false;
                }
            });
        } catch (AssertionError failed) {
            close();
            throw new AssertionError(failed.getMessage() + ": " + log("error.log"), failed);
        }
    }

    public int port() {
        return port;
    }

    /** Its prefix directory: nginx.conf, access.log, error.log, the cache. */
    public Path prefix() {
        return prefix;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Client connections nginx is answering now (stub_status's Writing, this status request included). */
    public int writing() throws IOException, InterruptedException {
        return statusField(WRITING);
    }

    public int activeConnections() throws IOException, InterruptedException {
        return statusField(ACTIVE);
    }

    private int statusField(Pattern field) throws IOException, InterruptedException {
        String body = status.send(
                        HttpRequest.newBuilder(URI.create(url("/nginx-status")))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        Matcher m = field.matcher(body);
        if (!m.find()) {
            fail("unexpected stub_status: " + body);
        }
        return Integer.parseInt(m.group(1));
    }

    /** A file under the prefix (error.log, access.log), for diagnostics. */
    public String log(String name) {
        try {
            Path file = prefix.resolve(name);
            return Files.exists(file) ? "\n" + name + ":\n" + Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "\n" + name + ": " + e;
        }
    }

    @Override
    public void close() throws IOException {
        process.destroy(); // SIGTERM to the master we started; it stops its workers
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        status.close();
        Harness.deleteTree(prefix);
    }
}
