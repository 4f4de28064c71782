package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.Main;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tern turn} as a separate process, stopped the way an init system stops it. */
class SignalsTest {
    @TempDir
    Path dir;

    private Process startRelay(Path pidFile, int port) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(
                        java,
                        "--add-exports",
                        "java.base/jdk.internal.misc=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "turn",
                        "--listening-ip",
                        "127.0.0.1",
                        "--relay-ip",
                        "127.0.0.1",
                        "--listening-port",
                        Integer.toString(port),
                        "--no-tcp",
                        "--use-auth-secret",
                        "--static-auth-secret",
                        "s",
                        "--pidfile",
                        pidFile.toString()))
                .redirectErrorStream(true)
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith("Tern relay listening")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> {}));
                drain.setDaemon(true);
                drain.start();
                return process;
            }
        }
        process.destroyForcibly();
        throw new AssertionError("relay did not start");
    }

    @Test
    void sigtermStopsTheRelayAndReleasesItsPortAndPidFile() throws Exception {
        Path pidFile = dir.resolve("tern.pid");
        int port = InteropRelay.freePort();
        Process relay = startRelay(pidFile, port);
        assertThat(Files.readString(pidFile).trim()).isEqualTo(Long.toString(relay.pid()));

        relay.destroy();
        assertThat(relay.waitFor(30, TimeUnit.SECONDS))
                .as("exited after SIGTERM")
                .isTrue();
        assertThat(relay.exitValue())
                .as("128 + SIGTERM, after the shutdown hook ran")
                .isEqualTo(143);
        assertThat(pidFile).doesNotExist();
        try (DatagramSocket socket = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
