package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.metrics.TurnClient;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import io.tern.testkit.Await;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tern turn} as a separate process, stopped the way an init system stops it. */
class SignalsTest {
    @TempDir
    Path dir;

    private Process startRelay(Path pidFile, int port, String... extra) throws Exception {
        List<String> options = new ArrayList<>(List.of(
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
                pidFile.toString()));
        options.addAll(List.of(extra));
        return TernProcess.startTurn(options);
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

    private static TurnClient client(int port) throws Exception {
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":drainer";
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
        mac.init(new javax.crypto.spec.SecretKeySpec("s".getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        String password = Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes(StandardCharsets.UTF_8)));
        return new TurnClient(new InetSocketAddress("127.0.0.1", port), "tern", username, password);
    }

    private static int ready(int metricsPort) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/ready"))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        }
    }

    private static void release(TurnClient client) throws Exception {
        assertThat(client.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 0))
                        .success())
                .isTrue();
    }

    @Test
    void sigusr1DrainsTurnsReadyRedRefusesNewAllocatesAndExitsWhenTheLastAllocationEnds() throws Exception {
        int port = InteropRelay.freePort();
        int metricsPort = InteropRelay.freePort();
        Process relay = startRelay(
                dir.resolve("tern.pid"), port, "--prometheus", "--prometheus-port", Integer.toString(metricsPort));
        try (TurnClient held = client(port);
                TurnClient newcomer = client(port)) {
            held.allocate();
            assertThat(ready(metricsPort)).isEqualTo(200);

            new ProcessBuilder("kill", "-USR1", Long.toString(relay.pid()))
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);

            Await.await("/ready turns 503", Duration.ofSeconds(10), () -> ready(metricsPort) == 503);
            assertThat(newcomer.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24))
                            .errorCode())
                    .as("no alternate known: 508, as coturn's drain")
                    .isEqualTo(508);
            assertThat(relay.isAlive()).as("an allocation is still open").isTrue();

            release(held);

            assertThat(relay.waitFor(30, TimeUnit.SECONDS))
                    .as("exits once the last allocation is gone")
                    .isTrue();
            assertThat(relay.exitValue()).isZero();
        } finally {
            relay.destroyForcibly();
        }
    }

    @Test
    void sigtermWithDrainOnTermDrainsDownToDrainMinAllocations() throws Exception {
        int port = InteropRelay.freePort();
        Process relay = startRelay(dir.resolve("tern.pid"), port, "--drain-on-term", "--drain-min-allocations", "1");
        try (TurnClient first = client(port);
                TurnClient second = client(port)) {
            first.allocate();
            second.allocate();

            relay.destroy();

            assertThat(relay.waitFor(2, TimeUnit.SECONDS))
                    .as("SIGTERM drains: two allocations are above drain-min-allocations")
                    .isFalse();
            release(first);
            assertThat(relay.waitFor(30, TimeUnit.SECONDS))
                    .as("exits with one allocation left, at drain-min-allocations")
                    .isTrue();
            assertThat(relay.exitValue()).isZero();
        } finally {
            relay.destroyForcibly();
        }
    }
}
