package io.tern.bench.nostr;

import io.tern.bench.load.ProcStats;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A relay under test, started fresh as its own process and stopped after its phases. The PID is
 * the relay's own (Tern's launcher execs java; the Node relay is node itself), for /proc samples.
 */
final class RelayProcess implements AutoCloseable {
    final String name;
    final int port;
    private final Process process;
    private final Path log;

    private RelayProcess(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    static RelayProcess start(String name, int port, List<String> command, Path workDir, Path log)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Process process = builder.start();
        RelayProcess relay = new RelayProcess(name, port, process, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180); // Tern may build first
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + "; see " + log);
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return relay;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        relay.close();
        throw new IOException(name + " did not listen on port " + port + " in 180 s; see " + log);
    }

    long pid() {
        return process.pid();
    }

    double cpuSeconds() {
        return ProcStats.cpuSeconds(pid());
    }

    long rssBytes() {
        return ProcStats.rssBytes(pid());
    }

    Path log() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
