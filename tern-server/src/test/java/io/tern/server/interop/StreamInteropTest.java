package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.stream.StreamEvent;
import io.tern.server.config.CoturnOptions;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.relay.RelayServer;
import io.tern.testkit.TestTls;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * coturn's turnutils_uclient against Tern over TCP ({@code -t}) and TLS ({@code -t -S}), in both
 * long-term credential modes (TURN REST secret and static users), with zero loss. Tern runs
 * in-process, configured with coturn's option names; the TLS certificate is the test kit's self-signed one.
 * Outside CI a missing tool skips; with {@code CI=true} it fails.
 */
class StreamInteropTest {
    private static final String SECRET = "stream-interop-secret";
    private static final String REALM = "stream.interop.test";
    private static final int CLIENTS = 4;
    private static final int MESSAGES = 50;

    @TempDir
    Path dir;

    private Path uclient;
    private Process peer;
    private int peerPort;
    private RelayServer server;

    @BeforeEach
    void startPeer() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        Path peerTool = CoturnTools.require("turnutils_peer");
        peerPort = InteropRelay.freePort();
        peer = new ProcessBuilder(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
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
        assertNoLoss(
                uclient("-t", "-S", "-p", Integer.toString(port), "-u", "user", "-w", "pass"), TransportProtocol.TLS);
    }

    /** Starts Tern with TCP (and TLS when asked) on fresh ports; returns the port the client should use. */
    private int startRelay(boolean tls, String... auth) throws Exception {
        int relayBase = 30000 + ThreadLocalRandom.current().nextInt(100) * 100;
        int tcpPort = InteropRelay.freePort();
        List<String> options = new ArrayList<>(List.of(
                "listening-ip",
                "127.0.0.1",
                "relay-ip",
                "127.0.0.1",
                "listening-port",
                Integer.toString(tcpPort),
                "min-port",
                Integer.toString(relayBase),
                "max-port",
                Integer.toString(relayBase + 99),
                "realm",
                REALM,
                "allow-loopback-peers",
                "",
                "no-udp",
                "",
                "no-dtls",
                ""));
        options.addAll(List.of(auth));
        int tlsPort = 0;
        if (tls) {
            Path cert = dir.resolve("cert.pem");
            Path key = dir.resolve("key.pem");
            TestTls.selfSigned(dir, "CN=localhost");
            tlsPort = InteropRelay.freePort();
            options.addAll(List.of(
                    "tls-listening-port", Integer.toString(tlsPort), "cert", cert.toString(), "pkey", key.toString()));
        } else {
            options.addAll(List.of("no-tls", ""));
        }
        List<Occurrence> values = new ArrayList<>();
        for (int i = 0; i < options.size(); i += 2) {
            Option<?> option = CoturnOptions.find(options.get(i));
            assertThat(option).as(options.get(i)).isNotNull();
            values.add(new Occurrence(option, options.get(i + 1), ConfigSource.commandLine()));
        }
        TurnServerConfig config = new TurnServerConfigAssembler(message -> {}).assemble(List.of(), values);
        server = RelayServer.start(config);
        return tls ? tlsPort : tcpPort;
    }

    private String uclient(String... modeArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of(uclient.toString()));
        command.addAll(List.of(modeArgs));
        command.addAll(List.of(
                "-e",
                "127.0.0.1",
                "-r",
                Integer.toString(peerPort),
                "-n",
                Integer.toString(MESSAGES),
                "-m",
                Integer.toString(CLIENTS),
                "-l",
                "160",
                "127.0.0.1"));
        return CoturnTools.run(90, command.toArray(String[]::new));
    }

    private void assertNoLoss(String output, TransportProtocol protocol) {
        CoturnTools.UclientResult result = CoturnTools.UclientResult.parse(output);
        long received = result.received();
        // On a loss, Tern's own counts say whether Tern dropped the message or never got it back.
        String described = output + "\n" + relayCounts(protocol);
        assertThat(result.sent()).as(described).isEqualTo((long) CLIENTS * MESSAGES);
        assertThat(received).as(described).isEqualTo(result.sent());
        assertThat(result.lost()).as(described).isZero();
        assertThat(relayed(TurnCounters.DIRECTION_PEER_TO_CLIENT, protocol))
                .as(described)
                .isGreaterThanOrEqualTo(received);
        assertThat(server.streamCounters().count(StreamEvent.ACCEPTED)).isGreaterThanOrEqualTo(CLIENTS);
        assertThat(server.streamCounters().count(StreamEvent.BAD_FRAMING)).isZero();
    }

    private String relayCounts(TransportProtocol protocol) {
        StringBuilder counts = new StringBuilder("Tern relayed client-to-peer ")
                .append(relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, protocol))
                .append(", peer-to-client ")
                .append(relayed(TurnCounters.DIRECTION_PEER_TO_CLIENT, protocol))
                .append("; drops:");
        for (DropReason reason : DropReason.values()) {
            long drops = 0;
            for (TurnEngine engine : server.engines()) {
                drops += engine.counters().drops(reason);
            }
            if (drops > 0) {
                counts.append(' ').append(reason).append('=').append(drops);
            }
        }
        return counts.toString();
    }

    private long relayed(int direction, TransportProtocol protocol) {
        long packets = 0;
        for (TurnEngine engine : server.engines()) {
            packets += engine.counters().relayedPackets(direction, protocol);
        }
        return packets;
    }
}
