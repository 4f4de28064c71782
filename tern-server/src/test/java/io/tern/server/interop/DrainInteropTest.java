package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.config.TurnServerConfig;
import io.tern.server.drain.AlternateSource;
import io.tern.server.interop.CoturnTools.UclientResult;
import io.tern.server.metrics.TurnClient;
import io.tern.server.relay.RelayServer;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMethod;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.redirect.AlternateServers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two relays on loopback sharing a REST secret and a {@code stateless-nonce-secret}: node A drains
 * and sends new Allocates to node B with 300 ALTERNATE-SERVER, while its existing allocation keeps
 * relaying and refreshing; coturn's turnutils_uclient, pointed at node A, follows the 300 (it does:
 * its {@code clnet_allocate} reconnects to the ALTERNATE-SERVER) and relays through node B without
 * loss; and a nonce node A issued is accepted by node B.
 */
class DrainInteropTest {
    private static final String SECRET = "drain-secret";
    private static final String NONCE_SECRET = "fleet-nonce-secret-for-tests";
    private static final String REALM = "drain.test";
    private static final Consumer<io.tern.stun.message.StunMessageWriter> UDP =
            w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);

    private Path uclient;
    private Process peer;
    private int peerPort;
    private RelayServer nodeA;
    private InteropRelay nodeB;
    private int portA;

    @BeforeEach
    void start() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        peerPort = InteropRelay.freePort();
        peer = CoturnTools.start(
                CoturnTools.require("turnutils_peer").toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1");
        nodeB = InteropRelay.start(options(InteropRelay.freePort()));
        portA = InteropRelay.freePort();
        TurnServerConfig configA = InteropRelay.config(options(portA));
        InetSocketAddress alternate = new InetSocketAddress("127.0.0.1", nodeB.port());
        AlternateSource registry = () -> AlternateServers.builder(AlternateServers.Mode.WHILE_DRAINING)
                .add(TransportProtocol.UDP, TransportAddress.of(alternate))
                .build();
        nodeA = RelayServer.start(configA, registry);
    }

    @AfterEach
    void stop() throws Exception {
        if (nodeA != null) {
            nodeA.close();
        }
        if (nodeB != null) {
            nodeB.close();
        }
        if (peer != null) {
            peer.destroy();
            peer.waitFor();
        }
    }

    private static String[] options(int port) {
        int relayBase = 20000 + ThreadLocalRandom.current().nextInt(400) * 100;
        return new String[] {
            "listening-ip",
            "127.0.0.1",
            "relay-ip",
            "127.0.0.1",
            "listening-port",
            Integer.toString(port),
            "min-port",
            Integer.toString(relayBase),
            "max-port",
            Integer.toString(relayBase + 99),
            "realm",
            REALM,
            "static-auth-secret",
            SECRET,
            "stateless-nonce-secret",
            NONCE_SECRET,
            "allow-loopback-peers",
            "",
            "no-tcp",
            "",
            "no-tls",
            ""
        };
    }

    private static TurnClient client(int port) throws Exception {
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":drain";
        return new TurnClient(new InetSocketAddress("127.0.0.1", port), REALM, username, restPassword(username));
    }

    private static String restPassword(String username) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
        mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(), "HmacSHA1"));
        return java.util.Base64.getEncoder().encodeToString(mac.doFinal(username.getBytes()));
    }

    private UclientResult uclientAgainst(int port) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "-W",
                SECRET,
                "-e",
                "127.0.0.1",
                "-r",
                Integer.toString(peerPort),
                "-p",
                Integer.toString(port),
                "-n",
                "40",
                "-m",
                "4",
                "-l",
                "160",
                "127.0.0.1"));
        return UclientResult.parse(CoturnTools.run(
                60, CoturnTools.command(uclient, args.toArray(String[]::new)).toArray(String[]::new)));
    }

    @Test
    void drainingNodeRedirectsNewAllocatesWhileItsAllocationKeepsRelaying() throws Exception {
        try (TurnClient existing = client(portA);
                TurnClient newcomer = client(portA)) {
            existing.allocate();
            existing.bindChannel(0x4001, TransportAddress.parse("127.0.0.1", peerPort));

            nodeA.drain();

            TurnClient.Response redirected = newcomer.request(StunMethod.ALLOCATE, UDP);
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
            assertThat(alternate).isEqualTo(TransportAddress.parse("127.0.0.1", nodeB.port()));

            assertThat(existing.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 600))
                            .success())
                    .as("the draining node's existing allocation still refreshes")
                    .isTrue();
            byte[] channelData = {0x40, 0x01, 0, 4, 1, 2, 3, 4};
            existing.sendRaw(channelData);
            assertThat(existing.receiveRaw())
                    .as("turnutils_peer echoes through the draining node's allocation")
                    .containsExactly(channelData);

            assertThat(nodeA.engines().get(0).allocationCount()).isEqualTo(1);
        }
    }

    @Test
    void turnutilsUclientFollowsThe300ToTheAlternateAndRelaysWithoutLoss() throws Exception {
        nodeA.drain();

        UclientResult result = uclientAgainst(portA);

        assertThat(result.sent()).as(result.output()).isEqualTo(160);
        assertThat(result.received()).as(result.output()).isEqualTo(160);
        assertThat(result.lost()).as(result.output()).isZero();
        assertThat(nodeA.engines().get(0).counters().errors(300))
                .as("node A redirected")
                .isPositive();
        assertThat(nodeA.engines().get(0).counters().activeAllocations(TransportProtocol.UDP))
                .isZero();
        assertThat(nodeB.server.engines().get(0).counters().requests(StunMethod.CHANNEL_BIND))
                .as("the client relayed through node B")
                .isPositive();
    }

    @Test
    void nonceIssuedByNodeAIsAcceptedByNodeB() throws Exception {
        try (TurnClient atA = client(portA);
                TurnClient atB = client(nodeB.port())) {
            assertThat(atA.unauthenticated(StunMethod.ALLOCATE, UDP).errorCode())
                    .isEqualTo(401);

            atB.nonce(atA.nonce());

            TurnClient.Response answer = atB.request(StunMethod.ALLOCATE, UDP);
            assertThat(answer.errorCode()).as("no 438 at node B").isZero();
            assertThat(answer.success()).isTrue();
        }
    }
}
