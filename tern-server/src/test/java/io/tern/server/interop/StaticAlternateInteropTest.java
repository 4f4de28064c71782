package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.interop.CoturnTools.UclientResult;
import io.tern.server.metrics.TurnClient;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * coturn's static {@code alternate-server} between two {@code tern turn} processes sharing a REST
 * secret and a {@code stateless-nonce-secret}: front node A answers every Allocate 300 naming node
 * B, turnutils_uclient pointed at A follows it and relays through B without loss (A itself may
 * not relay to loopback peers), and B accepts the nonce A issued.
 */
class StaticAlternateInteropTest {
    private static final String SECRET = "static-alternate-secret";
    private static final String NONCE_SECRET = "fleet-nonce-secret-shared-by-a-and-b";
    private static final String REALM = "alternate.test";
    private static final Consumer<StunMessageWriter> UDP = w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);

    private Path uclient;
    private Process peer;
    private int peerPort;
    private Process nodeA;
    private Process nodeB;
    private int portA;
    private int portB;

    @BeforeEach
    void start() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        peerPort = InteropRelay.freePort();
        peer = CoturnTools.start(
                CoturnTools.require("turnutils_peer").toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1");
        portB = InteropRelay.freePort();
        List<String> alternate = new ArrayList<>(options(portB));
        alternate.add("--allow-loopback-peers");
        nodeB = TernProcess.startTurn(alternate);
        portA = InteropRelay.freePort();
        // Without allow-loopback-peers, node A could not relay to turnutils_peer itself: a client
        // that relays did so through node B.
        List<String> front = new ArrayList<>(options(portA));
        front.addAll(List.of("--alternate-server", "127.0.0.1:" + portB));
        nodeA = TernProcess.startTurn(front);
    }

    @AfterEach
    void stop() throws Exception {
        for (Process process : new Process[] {nodeA, nodeB, peer}) {
            if (process != null) {
                process.destroy();
                process.waitFor();
            }
        }
    }

    private static List<String> options(int port) {
        int relayBase = 20000 + ThreadLocalRandom.current().nextInt(400) * 100;
        return List.of(
                "--listening-ip",
                "127.0.0.1",
                "--relay-ip",
                "127.0.0.1",
                "--listening-port",
                Integer.toString(port),
                "--min-port",
                Integer.toString(relayBase),
                "--max-port",
                Integer.toString(relayBase + 99),
                "--realm",
                REALM,
                "--use-auth-secret",
                "--static-auth-secret",
                SECRET,
                "--stateless-nonce-secret",
                NONCE_SECRET,
                "--no-tcp",
                "--no-tls");
    }

    private static TurnClient client(int port) throws Exception {
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":alternate";
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        String password = Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes(StandardCharsets.UTF_8)));
        return new TurnClient(new InetSocketAddress("127.0.0.1", port), REALM, username, password);
    }

    @Test
    void frontNodeAnswers300NamingTheAlternate() throws Exception {
        try (TurnClient atA = client(portA)) {
            TurnClient.Response redirected = atA.request(StunMethod.ALLOCATE, UDP);

            assertThat(redirected.errorCode()).isEqualTo(300);
            StunMessageDecoder m = redirected.message();
            TransportAddress alternate = new TransportAddress();
            assertThat(AddressAttribute.decodePlain(
                            m.buffer(),
                            m.valueOffset(AttributeType.ALTERNATE_SERVER),
                            m.valueLength(AttributeType.ALTERNATE_SERVER),
                            alternate,
                            new byte[16]))
                    .isTrue();
            assertThat(alternate).isEqualTo(TransportAddress.parse("127.0.0.1", portB));
        }
    }

    @Test
    void turnutilsUclientPointedAtTheFrontNodeRelaysThroughTheAlternateWithoutLoss() throws Exception {
        UclientResult result = UclientResult.parse(CoturnTools.run(
                60,
                CoturnTools.command(
                                uclient,
                                "-W",
                                SECRET,
                                "-e",
                                "127.0.0.1",
                                "-r",
                                Integer.toString(peerPort),
                                "-p",
                                Integer.toString(portA),
                                "-n",
                                "40",
                                "-m",
                                "4",
                                "-l",
                                "160",
                                "127.0.0.1")
                        .toArray(String[]::new)));

        assertThat(result.sent()).as(result.output()).isEqualTo(160);
        assertThat(result.received()).as(result.output()).isEqualTo(160);
        assertThat(result.lost()).as(result.output()).isZero();
    }

    @Test
    void aNonceIssuedByOneProcessIsAcceptedByTheOther() throws Exception {
        try (TurnClient atA = client(portA);
                TurnClient atB = client(portB)) {
            assertThat(atA.unauthenticated(StunMethod.ALLOCATE, UDP).errorCode())
                    .isEqualTo(401);

            TurnClient.Response answer = atB.nonce(atA.nonce()).request(StunMethod.ALLOCATE, UDP);

            assertThat(answer.errorCode()).as("no 438 at node B").isZero();
            assertThat(answer.success()).isTrue();
        }
    }
}
