package io.tern.server.nostr.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.testkit.Await;
import io.tern.testkit.PostgresProcess;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code tern nostr} processes on one real PostgreSQL 15 cluster (a test's own, started with
 * initdb and pg_ctl's postgres as the postgres user), and nostr-tools clients on Node
 * ({@code src/test/nostr/fleet.mjs}): what one node accepts, the other's subscribers see, once; a
 * node killed with SIGKILL loses nothing it acknowledged; a database restarted under load is
 * answered with {@code error:} while it is down and the nodes carry on after.
 */
@Timeout(240)
class TwoNodesOnPostgresTest {
    private static final String DATABASE = "fleet";

    @TempDir
    Path dir;

    private PostgresProcess pg;
    private Path passwordFile;
    private final List<Process> clients = new ArrayList<>();
    private final List<FleetNode> nodes = new ArrayList<>();

    @BeforeEach
    void database() throws Exception {
        NostrPeers.requireNode();
        pg = PostgresProcess.start();
        pg.createDatabase(DATABASE);
        passwordFile = dir.resolve("pg.password");
        Files.writeString(passwordFile, pg.password() + "\n");
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : clients) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (FleetNode n : nodes) {
            n.close();
            // In the test's report, for a failure's diagnosis.
            System.out.println("node " + n.url() + ":\n" + n.output());
        }
        if (pg != null) {
            pg.close();
        }
    }

    private FleetNode node(String... options) throws Exception {
        FleetNode n = FleetNode.start(pg.url(DATABASE), passwordFile, options);
        nodes.add(n);
        return n;
    }

    /** Starts {@code node fleet.mjs args...} in the background; its answers go to files the test reads. */
    private Process client(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "fleet.mjs"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(NostrPeers.DIR.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve("client" + clients.size() + ".out").toFile())
                .redirectErrorStream(true)
                .start();
        clients.add(p);
        return p;
    }

    private static List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private static List<String> okIds(Path published) throws Exception {
        return lines(published).stream()
                .filter(l -> l.startsWith("ok "))
                .map(l -> l.substring(3))
                .toList();
    }

    private static List<String> delivered(Path subscribed) throws Exception {
        return lines(subscribed).stream().filter(l -> l.length() == 64).toList();
    }

    private static String progress(Path subscribed, Set<String> stored) {
        try {
            return delivered(subscribed).size() + " delivered of " + stored.size() + " stored";
        } catch (Exception e) {
            return e.toString();
        }
    }

    private Set<String> storedIds() throws Exception {
        String out = pg.psql(DATABASE, "SELECT encode(id, 'hex') FROM nostr_events");
        Set<String> ids = new HashSet<>();
        for (String line : out.split("\n")) {
            if (line.strip().length() == 64) {
                ids.add(line.strip());
            }
        }
        return ids;
    }

    @Test
    void publishedOnAIsLiveOnBCountAgreesAndAnEphemeralEventIsStoredNowhere() throws Exception {
        FleetNode a = node();
        FleetNode b = node("--prometheus", "--prometheus-port", "0");
        assertThat(a.output()).contains("database postgresql://tern@127.0.0.1:" + pg.port() + "/" + DATABASE);
        Map<String, Object> r = NostrPeers.run(90, "fleet.mjs", "live", a.url(), b.url());
        assertThat(((Number) r.get("live")).intValue())
                .as("published on A, live on B")
                .isEqualTo(6);
        assertThat(((Number) r.get("ephemeralLive")).intValue()).isEqualTo(1);
        assertThat(((Number) r.get("countA")).intValue()).isEqualTo(6);
        assertThat(((Number) r.get("countB")).intValue()).isEqualTo(6);
        assertThat(r.get("storedA")).isEqualTo(r.get("storedB"));
        assertThat(((Number) r.get("poolB")).intValue()).isEqualTo(6);
        assertThat(((Number) r.get("ephemeralStored")).intValue()).isZero();
        assertThat(pg.psql(DATABASE, "SELECT count(*) FROM nostr_events WHERE kind BETWEEN 20000 AND 29999"))
                .isEqualTo("0");
        Matcher m =
                Pattern.compile("Prometheus metrics on (http://\\S+/metrics)").matcher(b.output());
        assertThat(m.find()).as("B's metrics endpoint in " + b.output()).isTrue();
        String metrics = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(m.group(1))).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(metrics)
                .contains("tern_nostr_bus_total{event=\"delivered_stored\"} 6.0")
                .contains("tern_nostr_bus_total{event=\"delivered_ephemeral\"} 1.0")
                .contains("tern_nostr_bus_total{event=\"duplicate\"} 0.0")
                .contains("tern_nostr_bus_lag_seconds_count 7")
                .contains("tern_nostr_store_events_total{event=\"committed\"} 0.0");
    }

    @Test
    void twoChromiumPagesOfTheRendezvousTestMeetThroughTwoNodes() throws Exception {
        NostrPeers.requireBrowser();
        FleetNode a = node();
        FleetNode b = node();
        // The answering page subscribes on A, the offering page on B: its offer reaches A's page,
        // and the answer B's, only through the PostgreSQL bus.
        Map<String, Object> r = NostrPeers.run(120, "browser.mjs", a.url(), b.url());
        assertThat(r.get("offer"))
                .as("the offer from B's page, answered on A: %s", r)
                .isNotNull();
        assertThat(r.get("answer"))
                .as("the answer from A's page, received on B: %s", r)
                .isNotNull();
        assertThat(pg.psql(DATABASE, "SELECT count(*) FROM nostr_events WHERE kind BETWEEN 20000 AND 29999"))
                .as("the ephemeral offer and answer are stored nowhere")
                .isEqualTo("0");
    }

    @Test
    void killNineOfAWhilePublishingLosesNothingAcknowledgedAndBDeliversEachOnce() throws Exception {
        FleetNode a = node();
        FleetNode b = node();
        Path subscribed = dir.resolve("subscribed.txt");
        Path published = dir.resolve("published.txt");
        client("subscribe", b.url(), subscribed.toString(), "90");
        Await.await(
                "B's subscriber subscribed",
                Duration.ofSeconds(30),
                () -> lines(subscribed).contains("subscribed"));
        Process publisher = client("publish", a.url(), published.toString(), "1000000");
        Await.await(
                "50 events acknowledged by A",
                Duration.ofSeconds(60),
                () -> okIds(published).size() >= 50);
        a.kill9();
        publisher.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

        List<String> acknowledged = okIds(published);
        Set<String> stored = storedIds();
        assertThat(stored).as("every event A acknowledged is stored").containsAll(acknowledged);
        // B's bus reads by sequence id: every stored event reaches B's subscriber, and once.
        Await.await(
                "every stored event delivered on B",
                Duration.ofSeconds(30),
                Duration.ofMillis(50),
                () -> new HashSet<>(delivered(subscribed)).equals(stored),
                () -> progress(subscribed, stored));
        List<String> got = delivered(subscribed);
        assertThat(got).doesNotHaveDuplicates().containsAll(acknowledged);
        assertThat(b.alive()).isTrue();
    }

    @Test
    void postgresRestartedUnderLoadIsAnsweredWithErrorThenBothNodesCatchUp() throws Exception {
        FleetNode a = node();
        FleetNode b = node();
        Path subscribed = dir.resolve("subscribed.txt");
        Path published = dir.resolve("published.txt");
        client("subscribe", b.url(), subscribed.toString(), "150");
        Await.await(
                "B's subscriber subscribed",
                Duration.ofSeconds(30),
                () -> lines(subscribed).contains("subscribed"));
        Process publisher = client("publish", a.url(), published.toString(), "1000000");
        Await.await(
                "20 events acknowledged by A",
                Duration.ofSeconds(60),
                () -> okIds(published).size() >= 20);

        pg.kill();
        Await.await(
                "A answering error: while the database is down",
                Duration.ofSeconds(30),
                () -> lines(published).stream().anyMatch(l -> l.startsWith("refused ") && l.contains(" error: ")));
        assertThat(a.alive()).isTrue();
        assertThat(b.alive()).isTrue();

        pg.restart();
        int before = okIds(published).size();
        Await.await(
                "A acknowledging again after the restart",
                Duration.ofSeconds(60),
                () -> okIds(published).size() >= before + 20);
        publisher.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

        List<String> acknowledged = okIds(published);
        Set<String> stored = storedIds();
        assertThat(stored).containsAll(acknowledged);
        Await.await(
                "every stored event delivered on B after the restart",
                Duration.ofSeconds(30),
                Duration.ofMillis(50),
                () -> new HashSet<>(delivered(subscribed)).equals(stored),
                () -> progress(subscribed, stored));
        assertThat(delivered(subscribed)).doesNotHaveDuplicates();
        assertThat(lines(published).stream().filter(l -> l.startsWith("refused ")))
                .as("refusals while down are error:, nothing else")
                .allMatch(l -> l.contains(" error: "));
    }
}
