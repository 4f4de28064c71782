package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.Main;
import io.tern.server.interop.CoturnTools.UclientResult;
import io.tern.server.metrics.TurnClient;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.testkit.Await;
import io.tern.testkit.RedisProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real fleet: {@code tern turn} processes sharing one redis-server, driven by coturn's
 * turnutils_uclient. The user quota holds across nodes, a node killed with SIGKILL gives its slots
 * back within the lease TTL, and relaying never stops while Redis is killed and restarted.
 */
class FleetInteropTest {
    private static final String REALM = "fleet.test";
    private static final String USER_KEY = "tern/fleet/realm/" + REALM + "/user/alice/leases";
    private static final int LEASE_TTL_SECONDS = 2;
    private static final Consumer<StunMessageWriter> UDP = w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);

    @TempDir
    Path dir;

    private Path uclient;
    private Process peer;
    private int peerPort;
    private RedisProcess redis;
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        uclient = CoturnTools.require("turnutils_uclient");
        Path peerTool = CoturnTools.require("turnutils_peer");
        redis = RedisProcess.start();
        peerPort = InteropRelay.freePort();
        peer = CoturnTools.start(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1");
        processes.add(peer);
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

    /** A node: {@code tern turn} on its own port and relay range, in the fleet on {@code redisUrl}. */
    private record Node(Process process, int port) {}

    private Node node(String id, String redisUrl, String... extra) throws Exception {
        int port = InteropRelay.freePort();
        int relayBase = 40000 + ThreadLocalRandom.current().nextInt(200) * 100;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
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
                "--lt-cred-mech",
                "--user=alice:alice-password",
                "--allow-loopback-peers",
                extraQuota(extra),
                "--cluster-redis=" + redisUrl,
                "--cluster-node-id=" + id,
                "--cluster-lease-ttl=" + LEASE_TTL_SECONDS));
        for (String option : extra) {
            if (!option.startsWith("--user-quota=")) {
                command.add(option);
            }
        }
        Path log = dir.resolve(id + ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        processes.add(process);
        Await.await("node " + id + " listening", Duration.ofSeconds(60), Duration.ofMillis(100), () -> {
            if (!process.isAlive()) {
                throw new AssertionError("node " + id + " exited:\n" + Files.readString(log));
            }
            return Files.readString(log).contains("Tern relay listening");
        });
        return new Node(process, port);
    }

    /** {@code --user-quota=2} unless the node's extra options set their own. */
    private static String extraQuota(String... extra) {
        for (String option : extra) {
            if (option.startsWith("--user-quota=")) {
                return option;
            }
        }
        return "--user-quota=2";
    }

    private List<String> uclientArgs(Node node, int messages, int intervalMs) {
        return CoturnTools.command(
                uclient,
                "-u",
                "alice",
                "-w",
                "alice-password",
                "-c", // no RTCP: one allocation per run
                "-e",
                "127.0.0.1",
                "-r",
                Integer.toString(peerPort),
                "-n",
                Integer.toString(messages),
                "-z",
                Integer.toString(intervalMs),
                "-l",
                "120",
                "-p",
                Integer.toString(node.port()),
                "127.0.0.1");
    }

    /** A short run to completion: its output. */
    private String shortRun(Node node) throws Exception {
        return CoturnTools.run(60, uclientArgs(node, 20, 20).toArray(String[]::new));
    }

    /** A run that holds its allocation for about {@code seconds}, in the background; output to a file. */
    private Process longRun(Node node, int seconds, Path output) throws IOException {
        Process p = new ProcessBuilder(uclientArgs(node, seconds * 10, 100))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        processes.add(p);
        return p;
    }

    private UclientResult finish(Process run, Path output) throws Exception {
        assertThat(run.waitFor(90, TimeUnit.SECONDS)).as("uclient finished").isTrue();
        return UclientResult.parse(Files.readString(output));
    }

    private long leasesOfAlice() throws IOException {
        String reply = redis.command("ZCARD", USER_KEY);
        return reply == null || !reply.startsWith(":")
                ? -1
                : Long.parseLong(reply.substring(1).strip());
    }

    private static String scrape(int port) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }

    private static void assertNoLoss(UclientResult result) {
        assertThat(result.sent()).as(result.output()).isPositive();
        assertThat(result.received()).as(result.output()).isEqualTo(result.sent());
        assertThat(result.lost()).as(result.output()).isZero();
    }

    @Test
    void userQuotaHoldsAcrossNodesAndAKilledNodesSlotsLapseWithinTheTtl() throws Exception {
        int metricsPort = InteropRelay.freePort();
        Node a = node("node-a", redis.url());
        Node b = node("node-b", redis.url(), "--prometheus", "--prometheus-port=" + metricsPort);
        Node c = node("node-c", redis.url());

        // turnutils_uclient opens two allocations per run (-c -m 1: two authenticated Allocates), so
        // one run on node-a spends alice's user-quota of 2 for the whole fleet.
        Process onA = longRun(a, 40, dir.resolve("a.out"));
        Await.await(
                "node-a's allocations hold alice's two slots",
                Duration.ofSeconds(30),
                Duration.ofMillis(100),
                () -> leasesOfAlice() == 2);

        assertThat(shortRun(b)).as("the third Allocate, on node-b").contains("486");
        assertThat(shortRun(c)).as("the third Allocate, on node-c").contains("486");
        assertThat(shortRun(a)).as("the third Allocate, on node-a itself").contains("486");
        assertThat(leasesOfAlice()).as("refused Allocates hold no slot").isEqualTo(2);
        Await.await(
                "node-b's metrics show the fleet",
                Duration.ofSeconds(20),
                Duration.ofMillis(200),
                () -> scrape(metricsPort).contains("tern_fleet_node_allocations{node=\"node-a\"} 2.0"));
        String metrics = scrape(metricsPort);
        assertThat(metrics).contains("tern_fleet_nodes_live 3.0", "tern_fleet_redis_up 1.0");
        assertThat(metrics).containsPattern("tern_fleet_quota_refusals_total [1-9]");
        assertThat(metrics).containsPattern("tern_fleet_redis_round_trips_total [1-9]");

        long killedAtNs = System.nanoTime();
        a.process().destroyForcibly(); // SIGKILL: no release, no deregistration
        onA.destroyForcibly();
        Await.await(
                "node-a's leases lapse",
                Duration.ofSeconds(LEASE_TTL_SECONDS * 3L),
                Duration.ofMillis(50),
                () -> leasesOfAlice() == 0);
        long lapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAtNs);
        assertThat(lapsedMs)
                .as("within the lease TTL (and the polling's slack)")
                .isLessThanOrEqualTo(LEASE_TTL_SECONDS * 1000L + 1000);

        assertNoLoss(UclientResult.parse(shortRun(c)));
    }

    @Test
    void relayingNeverStopsWhileRedisIsKilledAndQuotasFallBackThenRecover() throws Exception {
        Node a = node("node-a", redis.url());
        Node b = node("node-b", redis.url());
        Path aOut = dir.resolve("a.out");
        Process onA = longRun(a, 20, aOut);
        Await.await("a's leases", Duration.ofSeconds(30), Duration.ofMillis(100), () -> leasesOfAlice() == 2);

        redis.kill();
        // Decided by node-b's local quota, where alice holds nothing: the fleet's count is unknown.
        assertNoLoss(UclientResult.parse(shortRun(b)));

        redis.restart();
        Await.await(
                "the leases held meanwhile are written back to the restarted Redis",
                Duration.ofSeconds(20),
                Duration.ofMillis(100),
                () -> leasesOfAlice() >= 2);
        assertThat(shortRun(b)).as("the fleet's user-quota is enforced again").contains("486");

        assertNoLoss(finish(onA, aOut)); // node-a relayed through the whole outage
    }

    @Test
    void unreachableRedisAtStartIsAWarningAndFailingClosedRefusesWith508() throws Exception {
        int nobody = InteropRelay.freePort();
        Node open = node("node-open", "redis://127.0.0.1:" + nobody);
        Node closed = node("node-closed", "redis://127.0.0.1:" + nobody, "--cluster-redis-fail=closed");

        assertThat(Files.readString(dir.resolve("node-open.log")))
                .contains("cluster-redis redis://127.0.0.1:" + nobody + " unreachable");
        assertNoLoss(UclientResult.parse(shortRun(open)));
        assertThat(shortRun(closed)).contains("508");
    }

    @Test
    void aDrainedNodeSendsNewAllocatesToALiveNodeAndKeepsRelayingItsOwn() throws Exception {
        Node a = node("node-a", redis.url(), "--user-quota=10");
        Node b = node("node-b", redis.url(), "--user-quota=10");
        Path aOut = dir.resolve("a.out");
        Process onA = longRun(a, 15, aOut);
        Await.await("a's leases", Duration.ofSeconds(30), Duration.ofMillis(100), () -> leasesOfAlice() == 2);

        Process usr1 =
                new ProcessBuilder("kill", "-USR1", Long.toString(a.process().pid())).start();
        assertThat(usr1.waitFor(10, TimeUnit.SECONDS) && usr1.exitValue() == 0).isTrue();
        TransportAddress nodeB = TransportAddress.parse("127.0.0.1", b.port());
        Await.await(
                "node-a answers a new Allocate 300 naming node-b, from the registry",
                Duration.ofSeconds(30),
                Duration.ofMillis(200),
                () -> nodeB.equals(alternateOffered(a)));

        UclientResult redirected = UclientResult.parse(shortRun(a));
        assertNoLoss(redirected);
        assertThat(redirected.output()).as("uclient followed the 300").contains("300");
        assertNoLoss(finish(onA, aOut)); // node-a's own allocations relayed on through the drain
    }

    /** The ALTERNATE-SERVER of node's answer to an Allocate, or null when it is not a 300. */
    private static TransportAddress alternateOffered(Node node) throws Exception {
        try (TurnClient client =
                new TurnClient(new InetSocketAddress("127.0.0.1", node.port()), REALM, "alice", "alice-password")) {
            TurnClient.Response answer = client.request(StunMethod.ALLOCATE, UDP);
            if (answer.errorCode() != 300) {
                return null;
            }
            StunMessageDecoder m = answer.message();
            TransportAddress alternate = new TransportAddress();
            return AddressAttribute.decodePlain(
                            m.buffer(),
                            m.valueOffset(AttributeType.ALTERNATE_SERVER),
                            m.valueLength(AttributeType.ALTERNATE_SERVER),
                            alternate,
                            new byte[16])
                    ? alternate
                    : null;
        }
    }
}
