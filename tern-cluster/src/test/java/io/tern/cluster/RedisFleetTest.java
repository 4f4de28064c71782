package io.tern.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.testkit.Await;
import io.tern.testkit.RedisProcess;
import io.tern.turn.quota.LeaseDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fleet agent against a real redis-server: quotas across nodes, lapsing leases, the registry, outages, bad data. */
class RedisFleetTest {
    private RedisProcess redis;
    private final List<RedisFleet> fleets = new ArrayList<>();

    @BeforeEach
    void startRedis() throws Exception {
        redis = RedisProcess.start();
    }

    @AfterEach
    void stop() throws Exception {
        for (RedisFleet fleet : fleets) {
            fleet.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** A node on the test's Redis, once connected: a cold first connection must not read as an outage. */
    private RedisFleet node(String id, int userQuota, int totalQuota, Duration ttl) throws Exception {
        RedisFleet fleet = node(redis.url(), id, userQuota, totalQuota, ttl);
        Await.await(id + " connected", Duration.ofSeconds(20), fleet::reachable);
        return fleet;
    }

    private RedisFleet node(String url, String id, int userQuota, int totalQuota, Duration ttl) {
        RedisFleet fleet = RedisFleet.start(
                new FleetSettings(RedisAddress.parse(url), id, ttl, false, "test", userQuota, totalQuota));
        fleets.add(fleet);
        return fleet;
    }

    private RedisFleet node(String id, int userQuota) throws Exception {
        return node(id, userQuota, 0, Duration.ofSeconds(30));
    }

    private static LeaseDecision acquire(RedisFleet fleet, long leaseId, String user) throws Exception {
        CompletableFuture<LeaseDecision> answer = new CompletableFuture<>();
        fleet.acquire(leaseId, user, answer::complete);
        return answer.get(5, TimeUnit.SECONDS);
    }

    /** When the first (the only) lease of {@code user} lapses, in Redis's milliseconds. */
    private double lapse(String user) throws Exception {
        String reply =
                redis.command("ZRANGE", "tern/fleet/realm/test/user/" + user + "/leases", "0", "0", "WITHSCORES");
        String[] lines = reply.split("\r\n");
        return Double.parseDouble(lines[lines.length - 1]);
    }

    @Test
    void userQuotaHoldsAcrossNodes() throws Exception {
        RedisFleet a = node("node-a", 2);
        RedisFleet b = node("node-b", 2);

        assertThat(acquire(a, 1, "alice")).isEqualTo(LeaseDecision.GRANTED);
        assertThat(acquire(b, 1, "alice")).isEqualTo(LeaseDecision.GRANTED);
        assertThat(acquire(a, 2, "alice")).isEqualTo(LeaseDecision.REFUSED);
        assertThat(acquire(b, 2, "alice")).isEqualTo(LeaseDecision.REFUSED);
        assertThat(acquire(b, 3, "bob")).as("another user").isEqualTo(LeaseDecision.GRANTED);
        assertThat(a.quotaRefusals() + b.quotaRefusals()).isEqualTo(2);

        a.release(1, "alice"); // sent without waiting, on a's connection: b may ask before it lands
        Await.await(
                "a's release reaches Redis",
                Duration.ofSeconds(5),
                () -> redis.command("ZCARD", "tern/fleet/realm/test/user/alice/leases")
                        .startsWith(":1"));
        assertThat(acquire(b, 4, "alice")).isEqualTo(LeaseDecision.GRANTED);
    }

    @Test
    void totalQuotaHoldsAcrossNodes() throws Exception {
        RedisFleet a = node("node-a", 0, 2, Duration.ofSeconds(30));
        RedisFleet b = node("node-b", 0, 2, Duration.ofSeconds(30));

        assertThat(acquire(a, 1, "alice")).isEqualTo(LeaseDecision.GRANTED);
        assertThat(acquire(b, 1, "bob")).isEqualTo(LeaseDecision.GRANTED);
        assertThat(acquire(a, 2, "carol")).isEqualTo(LeaseDecision.REFUSED);
    }

    @Test
    void racingNodesNeverBothTakeTheLastSlot() throws Exception {
        RedisFleet a = node("node-a", 5);
        RedisFleet b = node("node-b", 5);
        List<CompletableFuture<LeaseDecision>> answers = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            for (RedisFleet fleet : List.of(a, b)) {
                CompletableFuture<LeaseDecision> answer = new CompletableFuture<>();
                fleet.acquire(i, "alice", answer::complete);
                answers.add(answer);
            }
        }
        long granted = 0;
        for (CompletableFuture<LeaseDecision> answer : answers) {
            if (answer.get(10, TimeUnit.SECONDS) == LeaseDecision.GRANTED) {
                granted++;
            }
        }
        assertThat(granted).isEqualTo(5);
    }

    @Test
    void aStoppedNodesLeasesLapseWithinTheTtl() throws Exception {
        RedisFleet a = node("node-a", 1, 0, Duration.ofSeconds(1));
        RedisFleet b = node("node-b", 1, 0, Duration.ofSeconds(1));
        assertThat(acquire(a, 1, "alice")).isEqualTo(LeaseDecision.GRANTED);
        double firstLapse = lapse("alice");
        Await.await(
                "refreshes carry the lease past its first TTL",
                Duration.ofSeconds(5),
                Duration.ofMillis(100),
                () -> lapse("alice") > firstLapse + 1000);
        assertThat(acquire(b, 1, "alice")).as("refreshed, still held").isEqualTo(LeaseDecision.REFUSED);

        a.close(); // stops refreshing without releasing, as a crash would
        fleets.remove(a);

        Await.await("node-a's lease lapses", Duration.ofSeconds(5), Duration.ofMillis(100), () -> {
            LeaseDecision d = acquire(b, 2, "alice");
            return d == LeaseDecision.GRANTED;
        });
    }

    @Test
    void registryShowsLiveNodesAndTheLeastLoadedOne() throws Exception {
        RedisFleet a = node("node-a", 0, 0, Duration.ofSeconds(1));
        RedisFleet b = node("node-b", 0, 0, Duration.ofSeconds(1));
        RedisFleet c = node("node-c", 0, 0, Duration.ofSeconds(1));
        a.announce(List.of("192.0.2.1"), List.of("udp/192.0.2.1:3478", "tcp/192.0.2.1:3478"));
        b.announce(List.of("192.0.2.2"), List.of("udp/192.0.2.2:3478"));
        c.announce(List.of("192.0.2.3"), List.of("udp/192.0.2.3:3478"));
        acquire(a, 1, "alice");
        acquire(a, 2, "alice");
        acquire(c, 1, "bob");

        Await.await(
                "a sees three nodes with their loads",
                Duration.ofSeconds(5),
                () -> a.liveNodes().size() == 3 && a.liveNodes().get(0).allocations() == 2);
        FleetNode first = a.liveNodes().get(0);
        assertThat(first.nodeId()).isEqualTo("node-a");
        assertThat(first.listener("tcp")).isEqualTo("192.0.2.1:3478");
        assertThat(first.relays()).containsExactly("192.0.2.1");
        assertThat(a.leastLoadedLiveNode(true).orElseThrow().nodeId()).isEqualTo("node-b");

        b.markDraining();
        Await.await(
                "b's drain is seen",
                Duration.ofSeconds(5),
                () -> a.liveNodes().stream().anyMatch(n -> n.nodeId().equals("node-b") && n.draining()));
        assertThat(a.leastLoadedLiveNode(true).orElseThrow().nodeId()).isEqualTo("node-c");

        c.close();
        fleets.remove(c);
        Await.await(
                "c leaves the registry",
                Duration.ofSeconds(5),
                () -> a.liveNodes().size() == 2);
        assertThat(a.leastLoadedLiveNode(true)).isEmpty();
        assertThat(a.leastLoadedLiveNode(false).orElseThrow().nodeId()).isEqualTo("node-a");
    }

    @Test
    void redisGoneIsUndecidedAndItsReturnWritesTheLeasesBack() throws Exception {
        RedisFleet a = node("node-a", 2, 0, Duration.ofSeconds(3));
        assertThat(acquire(a, 1, "alice")).isEqualTo(LeaseDecision.GRANTED);

        redis.kill();
        assertThat(acquire(a, 2, "alice")).isEqualTo(LeaseDecision.UNAVAILABLE);
        assertThat(a.reachable()).isFalse();
        assertThat(a.outages()).isEqualTo(1);
        assertThat(acquire(a, 3, "alice")).isEqualTo(LeaseDecision.UNAVAILABLE);
        assertThat(a.outages()).as("one outage, however many failures").isEqualTo(1);
        a.release(3, "alice");

        redis.restart();
        Await.await(
                "both held leases are written back to the empty Redis",
                Duration.ofSeconds(15),
                Duration.ofMillis(100),
                () -> String.valueOf(redis.command("ZCARD", "tern/fleet/realm/test/user/alice/leases"))
                        .startsWith(":2"));
        assertThat(acquire(a, 4, "alice"))
                .as("the fleet's count is back: quota 2 spent")
                .isEqualTo(LeaseDecision.REFUSED);
        assertThat(a.reachable()).isTrue();
    }

    @Test
    void unreachableAtStartStartsAnywayAndLeasesAreUndecided() throws Exception {
        RedisFleet a = node("redis://127.0.0.1:1", "node-a", 1, 0, Duration.ofSeconds(30));
        assertThat(a.reachable()).isFalse();
        assertThat(acquire(a, 1, "alice")).isEqualTo(LeaseDecision.UNAVAILABLE);
        assertThat(a.heldLeases())
                .as("held, to be written back once Redis answers")
                .isEqualTo(1);
    }

    @Test
    void malformedValuesAreRefusedNeverGrantedAndNeverCrash() throws Exception {
        RedisFleet a = node("node-a", 0, 0, Duration.ofSeconds(1));
        redis.command("SET", "tern/fleet/realm/test/user/mallory/leases", "not-a-set");
        assertThat(acquire(a, 1, "mallory")).isEqualTo(LeaseDecision.REFUSED);
        assertThat(a.malformedValues()).isEqualTo(1);
        assertThat(acquire(a, 2, "alice")).as("other users unharmed").isEqualTo(LeaseDecision.GRANTED);

        redis.command("ZADD", "tern/fleet/nodes", "9999999999999", "bad-node");
        redis.command(
                "HSET",
                "tern/fleet/node/bad-node",
                "relays",
                "x",
                "listeners",
                "y",
                "allocations",
                "lots",
                "draining",
                "0");
        redis.command("ZADD", "tern/fleet/nodes", "9999999999999", "wrong-type");
        redis.command("SET", "tern/fleet/node/wrong-type", "x");
        a.announce(List.of("192.0.2.1"), List.of("udp/192.0.2.1:3478"));
        Await.await(
                "a registers itself", Duration.ofSeconds(5), () -> a.liveNodes().size() == 1);
        Await.await(
                "the bad registrations are read and skipped", Duration.ofSeconds(5), () -> a.malformedValues() >= 3);
        assertThat(a.liveNodes()).extracting(FleetNode::nodeId).containsExactly("node-a");
        assertThat(a.malformedValues()).isGreaterThanOrEqualTo(3);

        // A lease planted to lapse in a century holds no slot.
        redis.command("ZADD", "tern/fleet/realm/test/user/carol/leases", "9999999999999", "forged");
        RedisFleet quota1 = node("node-b", 1, 0, Duration.ofSeconds(30));
        assertThat(acquire(quota1, 1, "carol")).isEqualTo(LeaseDecision.GRANTED);
    }
}
