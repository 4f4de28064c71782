package io.tern.bench.harness.server;

import io.tern.bench.harness.sample.ProcStats;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The server under test, started fresh for one run (a TURN relay, an origin or its publisher, a
 * Nostr relay, a WebSocket echo server). The reported PID is the server process itself: if the
 * command is a wrapper shell that did not {@code exec}, the first non-shell descendant is used.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "env");

    private final Process process;
    private final long pid;
    private final Path log;

    private ServerProcess(Process process, long pid, Path log) {
        this.process = process;
        this.pid = pid;
        this.log = log;
    }

    public long pid() {
        return pid;
    }

    public Path log() {
        return log;
    }

    /** utime + stime of the server process so far. */
    public double cpuSeconds() {
        return ProcStats.cpuSeconds(pid);
    }

    /** The server process's VmRSS now. */
    public long rssBytes() {
        return ProcStats.rssBytes(pid);
    }

    /** True while the started process has not exited. */
    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Starts {@code command} and waits, polling every 50 ms, until {@code ready} holds (bounded by
     * {@code readyTimeoutMs}); {@code what} names the awaited condition in errors.
     */
    public static ServerProcess start(
            List<String> command, Path workDir, Path log, BooleanSupplier ready, String what, long readyTimeoutMs)
            throws IOException, InterruptedException {
        return start(command, Map.of(), workDir, log, ready, what, readyTimeoutMs);
    }

    /** As above, with {@code environment} added to the process's environment. */
    public static ServerProcess start(
            List<String> command,
            Map<String, String> environment,
            Path workDir,
            Path log,
            BooleanSupplier ready,
            String what,
            long readyTimeoutMs)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(environment);
        Process p = pb.start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(readyTimeoutMs);
        try {
            while (true) {
                if (!p.isAlive()) {
                    throw new IOException("server exited with " + p.exitValue() + " before it was ready; see " + log);
                }
                if (ready.getAsBoolean()) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException(
                            "server not ready (" + what + ") after " + readyTimeoutMs + " ms; see " + log);
                }
                Thread.sleep(50);
            }
            return new ServerProcess(p, serverPid(p.pid()), log);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(p);
            throw e;
        }
    }

    /** Follows wrapper shells down to the real server process. */
    public static long serverPid(long pid) {
        long current = pid;
        for (int depth = 0; depth < 5; depth++) {
            if (!SHELLS.contains(ProcStats.comm(current))) {
                return current;
            }
            List<Long> kids = ProcStats.children(current);
            if (kids.isEmpty()) {
                return current;
            }
            current = kids.get(0);
        }
        return current;
    }

    /** True when a TCP connection to 127.0.0.1:{@code port} is accepted. */
    public static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (pid != process.pid()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
        stop(process);
        if (pid != process.pid()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Stops the process and everything it started (a launcher that is still building runs Maven
     * as a child: killing only the shell left that build running and writing into the tree).
     * Descendants are listed before the parent dies, while they can still be found.
     */
    private static void stop(Process p) throws InterruptedException {
        List<ProcessHandle> kids = p.descendants().toList();
        p.destroy();
        kids.forEach(ProcessHandle::destroy);
        if (!p.waitFor(5, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        kids.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
