package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.interop.CoturnTools.UclientResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * coturn's turnutils_uclient and turnutils_stunclient against Tern over UDP, in both of coturn's
 * long-term credential modes: static users and the TURN REST shared secret.
 */
class UdpInteropTest {
    private static final String SECRET = "interop-secret";
    private static final String REALM = "interop.test";

    private Path uclient;
    private Process peer;
    private int peerPort;

    @BeforeEach
    void startPeer() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        Path peerTool = CoturnTools.require("turnutils_peer");
        peerPort = InteropRelay.freePort();
        peer = CoturnTools.start(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1");
    }

    @AfterEach
    void stopPeer() throws Exception {
        if (peer != null) {
            peer.destroy();
            peer.waitFor();
        }
    }

    private static InteropRelay restSecretRelay() throws Exception {
        int relayBase = 20000 + ThreadLocalRandom.current().nextInt(100) * 100;
        return InteropRelay.start(
                "listening-ip",
                "127.0.0.1",
                "relay-ip",
                "127.0.0.1",
                "listening-port",
                Integer.toString(InteropRelay.freePort()),
                "min-port",
                Integer.toString(relayBase),
                "max-port",
                Integer.toString(relayBase + 99),
                "realm",
                REALM,
                "use-auth-secret",
                "",
                "static-auth-secret",
                SECRET,
                "allow-loopback-peers",
                "",
                "no-tcp",
                "",
                "no-tls",
                "");
    }

    private UclientResult uclient(InteropRelay relay, String... modeArgs) throws Exception {
        List<String> args = new ArrayList<>(List.of(modeArgs));
        args.addAll(List.of("-p", Integer.toString(relay.port()), "-n", "40", "-m", "4", "-l", "160", "127.0.0.1"));
        return UclientResult.parse(CoturnTools.run(
                60, CoturnTools.command(uclient, args.toArray(String[]::new)).toArray(String[]::new)));
    }

    private static void assertNoLoss(UclientResult result) {
        assertThat(result.sent()).as(result.output()).isEqualTo(160);
        assertThat(result.received()).as(result.output()).isEqualTo(160);
        assertThat(result.lost()).as(result.output()).isZero();
    }

    @Test
    void restSecretClientsRelayThroughChannelsWithoutLoss() throws Exception {
        try (InteropRelay relay = restSecretRelay()) {
            assertNoLoss(uclient(relay, "-W", SECRET, "-e", "127.0.0.1", "-r", Integer.toString(peerPort)));
            assertThat(relay.server.engines().get(0).counters().requests(io.tern.stun.message.StunMethod.CHANNEL_BIND))
                    .isPositive();
        }
    }

    @Test
    void restSecretClientsRelayThroughSendIndicationsWithoutLoss() throws Exception {
        try (InteropRelay relay = restSecretRelay()) {
            assertNoLoss(uclient(relay, "-W", SECRET, "-s", "-e", "127.0.0.1", "-r", Integer.toString(peerPort)));
            assertThat(relay.server.engines().get(0).counters().requests(io.tern.stun.message.StunMethod.SEND))
                    .isPositive();
        }
    }

    @Test
    void dontFragmentAndPaddedChannelDataAreAccepted() throws Exception {
        try (InteropRelay relay = restSecretRelay()) {
            assertNoLoss(uclient(relay, "-W", SECRET, "-g", "-D", "-e", "127.0.0.1", "-r", Integer.toString(peerPort)));
        }
    }

    @Test
    void clientsRelayToEachOtherThroughTheirAllocations() throws Exception {
        try (InteropRelay relay = restSecretRelay()) {
            assertNoLoss(uclient(relay, "-W", SECRET, "-y"));
        }
    }

    @Test
    void staticUserClientsRelayWithoutLoss() throws Exception {
        int relayBase = 30000 + ThreadLocalRandom.current().nextInt(100) * 100;
        try (InteropRelay relay = InteropRelay.start(
                "listening-ip",
                "127.0.0.1",
                "relay-ip",
                "127.0.0.1",
                "listening-port",
                Integer.toString(InteropRelay.freePort()),
                "min-port",
                Integer.toString(relayBase),
                "max-port",
                Integer.toString(relayBase + 99),
                "realm",
                REALM,
                "lt-cred-mech",
                "",
                "user",
                "ninefingers:youhavetoberealistic",
                "allow-loopback-peers",
                "",
                "no-tcp",
                "",
                "no-tls",
                "")) {
            assertNoLoss(uclient(
                    relay,
                    "-u",
                    "ninefingers",
                    "-w",
                    "youhavetoberealistic",
                    "-e",
                    "127.0.0.1",
                    "-r",
                    Integer.toString(peerPort)));
        }
    }

    @Test
    void wrongPasswordIsRejected() throws Exception {
        try (InteropRelay relay = restSecretRelay()) {
            String output = CoturnTools.run(
                    60,
                    uclient.toString(),
                    "-W",
                    "not-the-secret",
                    "-e",
                    "127.0.0.1",
                    "-r",
                    Integer.toString(peerPort),
                    "-n",
                    "1",
                    "-m",
                    "1",
                    "-p",
                    Integer.toString(relay.port()),
                    "127.0.0.1");
            assertThat(output).doesNotContain("tot_recv_msgs=1");
            assertThat(relay.server.engines().get(0).counters().authFailures()).isPositive();
        }
    }

    @Test
    void stunClientLearnsItsReflexiveAddress() throws Exception {
        Path stunclient = CoturnTools.require("turnutils_stunclient");
        try (InteropRelay relay = restSecretRelay()) {
            String output =
                    CoturnTools.run(30, stunclient.toString(), "-p", Integer.toString(relay.port()), "127.0.0.1");
            assertThat(output).contains("UDP reflexive addr: 127.0.0.1:");
        }
    }
}
