package io.tern.server.nostr.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tern nostr --db postgresql://...} as a process of its own (the test's class path, as
 * {@code ./tern} runs it), so that a test can SIGKILL it. Started on a free loopback port; stopped
 * by its PID.
 */
final class FleetNode implements AutoCloseable {
    private static final Pattern START = Pattern.compile("Tern Nostr relay on (ws://127\\.0\\.0\\.1:[0-9]+/) .*");

    private final Process process;
    private final String url;
    private final StringBuilder output;

    private FleetNode(Process process, String url, StringBuilder output) {
        this.process = process;
        this.url = url;
        this.output = output;
    }

    static FleetNode start(String dbUrl, Path passwordFile, String... options) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                // As ./tern runs it: without this export Netty's WebSocket upgrade fails silently.
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Dio.netty.leakDetection.level=paranoid",
                "-cp",
                System.getProperty("java.class.path"),
                "io.tern.server.Main",
                "nostr",
                "--listen",
                "127.0.0.1",
                "--port",
                "0",
                "--db",
                dbUrl,
                "--db-password-file",
                passwordFile.toString()));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        StringBuilder output = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    Matcher m = START.matcher(line);
                    if (m.matches()) {
                        ready.offer(m.group(1));
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        String url = ready.poll(60, TimeUnit.SECONDS);
        if (url == null) {
            process.destroyForcibly();
            synchronized (output) {
                throw new IllegalStateException("tern nostr did not start within 60 s:\n" + output);
            }
        }
        return new FleetNode(process, url, output);
    }

    String url() {
        return url;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    /** SIGKILL, as a crash: no shutdown hook runs, nothing is flushed. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
