package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.Main;
import io.tern.server.interop.CoturnTools.UclientResult;
import io.tern.server.metrics.TurnClient;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunMethod;
import io.tern.testkit.Await;
import io.tern.testkit.RedisProcess;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * coturn's {@code redis-userdb} as a drop-in: a {@code tern turn} process reading a real
 * redis-server, where users and REST secrets are added and removed as coturn's operators do, and
 * coturn's turnutils_uclient authenticates with them within seconds, without a restart.
 */
class UserDbInteropTest {
    private static final String REALM = "userdb.test";
    private static final String CONFIGURED_SECRET = "configured-secret";
    /** The relay reads every 2 s; a cold JVM and a busy host get the rest. */
    private static final Duration WITHIN = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private Path uclient;
    private int peerPort;
    private RedisProcess redis;
    private int port;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        Path peerTool = CoturnTools.require("turnutils_peer");
        redis = RedisProcess.start();
        peerPort = InteropRelay.freePort();
        processes.add(CoturnTools.start(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1"));
        port = InteropRelay.freePort();
        int relayBase = 40000 + ThreadLocalRandom.current().nextInt(200) * 100;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(
                java,
                "--add-exports",
                "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "turn",
                "--listening-ip=127.0.0.1",
                "--relay-ip=127.0.0.1",
                "--listening-port=" + port,
                "--min-port=" + relayBase,
                "--max-port=" + (relayBase + 99),
                "--no-tcp",
                "--no-tls",
                "--realm=" + REALM,
                "--use-auth-secret",
                "--static-auth-secret=" + CONFIGURED_SECRET,
                "--allow-loopback-peers",
                // coturn's connection string, as a coturn config would carry it.
                "--redis-userdb=ip=127.0.0.1 dbname=0 port=" + redis.port() + " connect_timeout=30");
        Path log = dir.resolve("tern.log");
        Process relay = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(relay);
        Await.await("relay listening", Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
            if (!relay.isAlive()) {
                throw new AssertionError("relay exited:\n" + Files.readString(log));
            }
            return Files.readString(log).contains("Tern relay listening");
        });
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void aUserAddedInRedisAuthenticatesAndOnceRemovedGets401() throws Exception {
        assertThat(allocateAs("erin", "erin-pass")).as("before the user exists").isEqualTo(401);

        // What coturn's `turnadmin -a -N ... -u erin -r userdb.test -p erin-pass` writes.
        redis.command("SET", "turn/realm/" + REALM + "/user/erin/key", keyHex("erin", "erin-pass"));
        Await.await("erin allocates", WITHIN, Duration.ofMillis(250), () -> allocateAs("erin", "erin-pass") == 0);
        assertNoLoss(uclient("-u", "erin", "-w", "erin-pass"));

        redis.command("DEL", "turn/realm/" + REALM + "/user/erin/key");
        Await.await("erin refused", WITHIN, Duration.ofMillis(250), () -> allocateAs("erin", "erin-pass") == 401);
    }

    @Test
    void aSecretAddedToTheSetSignsRestCredentialsBesideTheConfiguredOne() throws Exception {
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":dave";
        assertThat(allocateAs(username, restPassword("rotated-in", username))).isEqualTo(401);

        redis.command("SADD", "turn/realm/" + REALM + "/secret", "rotated-in");
        Await.await(
                "the new secret works",
                WITHIN,
                Duration.ofMillis(250),
                () -> allocateAs(username, restPassword("rotated-in", username)) == 0);
        assertNoLoss(uclient("-W", "rotated-in"));
        assertNoLoss(uclient("-W", CONFIGURED_SECRET));
    }

    @Test
    void aMalformedKeyInRedisGrantsNothingAndTheRelayGoesOn() throws Exception {
        redis.command("SET", "turn/realm/" + REALM + "/user/erin/key", "not-hex-at-all");
        redis.command("SET", "turn/realm/" + REALM + "/user/frank/key", keyHex("frank", "frank-pass"));
        Await.await("frank allocates", WITHIN, Duration.ofMillis(250), () -> allocateAs("frank", "frank-pass") == 0);

        assertThat(allocateAs("erin", "not-hex-at-all")).isEqualTo(401);
        assertNoLoss(uclient("-W", CONFIGURED_SECRET));
    }

    @Test
    void aPeerRangeDeniedInRedisRefusesPermissionsUntilRemoved() throws Exception {
        TransportAddress peer = TransportAddress.parse("127.0.0.1", peerPort);
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":dave";
        try (TurnClient client = new TurnClient(
                new InetSocketAddress("127.0.0.1", port), REALM, username, restPassword(CONFIGURED_SECRET, username))) {
            client.allocate();
            assertThat(permission(client, peer)).isZero();

            // coturn's schema: turn/denied-peer-ip/<any id>, an address, A-B range or CIDR.
            redis.command("SET", "turn/denied-peer-ip/1", "127.0.0.0-127.0.0.255");
            Await.await("the deny read", WITHIN, Duration.ofMillis(250), () -> permission(client, peer) == 403);

            redis.command("DEL", "turn/denied-peer-ip/1");
            Await.await("the deny removed", WITHIN, Duration.ofMillis(250), () -> permission(client, peer) == 0);
        }
        assertNoLoss(uclient("-W", CONFIGURED_SECRET));
    }

    private static int permission(TurnClient client, TransportAddress peer) throws Exception {
        TurnClient.Response response = client.request(
                StunMethod.CREATE_PERMISSION, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer));
        return response.success() ? 0 : response.errorCode();
    }

    /** 0 when an Allocate with these credentials succeeds, else its error code. */
    private int allocateAs(String username, String password) throws Exception {
        try (TurnClient client = new TurnClient(new InetSocketAddress("127.0.0.1", port), REALM, username, password)) {
            TurnClient.Response response =
                    client.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
            return response.success() ? 0 : response.errorCode();
        }
    }

    private UclientResult uclient(String... credentials) throws Exception {
        List<String> args = new ArrayList<>(List.of(credentials));
        args.addAll(List.of(
                "-c",
                "-e",
                "127.0.0.1",
                "-r",
                Integer.toString(peerPort),
                "-n",
                "20",
                "-z",
                "20",
                "-p",
                Integer.toString(port),
                "127.0.0.1"));
        return UclientResult.parse(CoturnTools.run(
                60, CoturnTools.command(uclient, args.toArray(String[]::new)).toArray(String[]::new)));
    }

    private static void assertNoLoss(UclientResult result) {
        assertThat(result.sent()).as(result.output()).isPositive();
        assertThat(result.received()).as(result.output()).isEqualTo(result.sent());
        assertThat(result.lost()).as(result.output()).isZero();
    }

    private static String keyHex(String user, String password) {
        return HexFormat.of().formatHex(MessageIntegrity.longTermKeyMd5(utf8(user), utf8(REALM), utf8(password)));
    }

    private static String restPassword(String secret, String username) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
        mac.init(new javax.crypto.spec.SecretKeySpec(utf8(secret), "HmacSHA1"));
        return java.util.Base64.getEncoder().encodeToString(mac.doFinal(utf8(username)));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
