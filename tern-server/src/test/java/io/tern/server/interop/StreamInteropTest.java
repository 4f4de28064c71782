package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tern.server.config.ConfigSource;
import io.tern.server.config.CoturnOptions;
import io.tern.server.config.OptionDef;
import io.tern.server.config.OptionValue;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.relay.RelayServer;
import io.tern.transport.stream.StreamEvent;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * coturn's turnutils_uclient against Tern over TCP ({@code -t}) and TLS ({@code -t -S}), in both
 * long-term credential modes (TURN REST secret and static users), with zero loss. Tern runs
 * in-process, configured with coturn's option names; the TLS certificate is made by openssl.
 * Outside CI a missing tool skips; with {@code CI=true} it fails.
 */
class StreamInteropTest {
    private static final String SECRET = "stream-interop-secret";
    private static final String REALM = "stream.interop.test";
    private static final int CLIENTS = 4;
    private static final int MESSAGES = 50;
    private static final Pattern LOST = Pattern.compile("Total lost packets (\\d+)");
    private static final Pattern SENT_RECEIVED = Pattern.compile("tot_send_msgs=(\\d+), tot_recv_msgs=(\\d+)");

    @TempDir
    Path dir;

    private Path uclient;
    private Process peer;
    private int peerPort;
    private RelayServer server;

    @BeforeEach
    void startPeer() throws Exception {
        uclient = require("turnutils_uclient");
        Path peerTool = require("turnutils_peer");
        peerPort = freePort();
        peer = new ProcessBuilder(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (peer != null) {
            peer.destroy();
            peer.waitFor();
        }
    }

    @Test
    void tcpWithRestSecret() throws Exception {
        int port = startRelay(false, "use-auth-secret", "", "static-auth-secret", SECRET);
        assertNoLoss(uclient("-t", "-p", Integer.toString(port), "-W", SECRET), TransportProtocol.TCP);
    }

    @Test
    void tcpWithStaticUser() throws Exception {
        int port = startRelay(false, "lt-cred-mech", "", "user", "user:pass");
        assertNoLoss(uclient("-t", "-p", Integer.toString(port), "-u", "user", "-w", "pass"), TransportProtocol.TCP);
    }

    @Test
    void tlsWithRestSecret() throws Exception {
        int port = startRelay(true, "use-auth-secret", "", "static-auth-secret", SECRET);
        assertNoLoss(uclient("-t", "-S", "-p", Integer.toString(port), "-W", SECRET), TransportProtocol.TLS);
    }

    @Test
    void tlsWithStaticUser() throws Exception {
        int port = startRelay(true, "lt-cred-mech", "", "user", "user:pass");
        assertNoLoss(uclient("-t", "-S", "-p", Integer.toString(port), "-u", "user", "-w", "pass"), TransportProtocol.TLS);
    }

    /** Starts Tern with TCP (and TLS when asked) on fresh ports; returns the port the client should use. */
    private int startRelay(boolean tls, String... auth) throws Exception {
        int relayBase = 30000 + ThreadLocalRandom.current().nextInt(100) * 100;
        int tcpPort = freePort();
        List<String> options = new ArrayList<>(List.of("listening-ip", "127.0.0.1", "relay-ip", "127.0.0.1",
                "listening-port", Integer.toString(tcpPort),
                "min-port", Integer.toString(relayBase), "max-port", Integer.toString(relayBase + 99),
                "realm", REALM, "allow-loopback-peers", "", "no-udp", "", "no-dtls", ""));
        options.addAll(List.of(auth));
        int tlsPort = 0;
        if (tls) {
            Path cert = dir.resolve("cert.pem");
            Path key = dir.resolve("key.pem");
            selfSigned(cert, key);
            tlsPort = freePort();
            options.addAll(List.of("tls-listening-port", Integer.toString(tlsPort), "cert", cert.toString(),
                    "pkey", key.toString()));
        } else {
            options.addAll(List.of("no-tls", ""));
        }
        List<OptionValue> values = new ArrayList<>();
        for (int i = 0; i < options.size(); i += 2) {
            OptionDef option = CoturnOptions.find(options.get(i));
            assertThat(option).as(options.get(i)).isNotNull();
            values.add(new OptionValue(option, options.get(i + 1), ConfigSource.commandLine()));
        }
        TurnServerConfig config = new TurnServerConfigAssembler(message -> { }).assemble(List.of(), values);
        server = RelayServer.start(config);
        return tls ? tlsPort : tcpPort;
    }

    private String uclient(String... modeArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of(uclient.toString()));
        command.addAll(List.of(modeArgs));
        command.addAll(List.of("-e", "127.0.0.1", "-r", Integer.toString(peerPort), "-n", Integer.toString(MESSAGES),
                "-m", Integer.toString(CLIENTS), "-l", "160", "127.0.0.1"));
        return run(90, command);
    }

    private void assertNoLoss(String output, TransportProtocol protocol) {
        Matcher counts = SENT_RECEIVED.matcher(output);
        long sent = -1;
        long received = -1;
        while (counts.find()) {
            sent = Long.parseLong(counts.group(1));
            received = Long.parseLong(counts.group(2));
        }
        Matcher lost = LOST.matcher(output);
        if (sent < 0 || !lost.find()) {
            fail("turnutils_uclient printed no summary:%n%s", output);
        }
        assertThat(sent).as(output).isEqualTo((long) CLIENTS * MESSAGES);
        assertThat(received).as(output).isEqualTo(sent);
        assertThat(Long.parseLong(lost.group(1))).as(output).isZero();
        long relayedToClients = 0;
        for (TurnEngine engine : server.engines()) {
            relayedToClients += engine.counters().relayedPackets(TurnCounters.DIRECTION_PEER_TO_CLIENT, protocol);
        }
        assertThat(relayedToClients).isGreaterThanOrEqualTo(received);
        assertThat(server.streamCounters().count(StreamEvent.ACCEPTED)).isGreaterThanOrEqualTo(CLIENTS);
        assertThat(server.streamCounters().count(StreamEvent.BAD_FRAMING)).isZero();
    }

    private static void selfSigned(Path cert, Path key) throws Exception {
        Path openssl = require("openssl");
        run(60, List.of(openssl.toString(), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost"));
        assertThat(Files.size(cert)).isPositive();
    }

    private static Path require(String tool) {
        Path path = Path.of("/usr/bin", tool);
        if (!Files.isExecutable(path)) {
            if ("true".equals(System.getenv("CI"))) {
                fail(tool + " is missing: install Debian's coturn and openssl packages");
            }
            assumeTrue(false, tool + " not installed");
        }
        return path;
    }

    private static String run(int timeoutSeconds, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // Read while it runs so a chatty tool never blocks on a full pipe.
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = process.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = new byte[0];
            }
        });
        reader.start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        reader.join(10_000);
        String text = output[0] == null ? "" : new String(output[0], StandardCharsets.UTF_8);
        assertThat(finished).as("%s finished within %d s; output:%n%s", command.get(0), timeoutSeconds, text).isTrue();
        return text;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
