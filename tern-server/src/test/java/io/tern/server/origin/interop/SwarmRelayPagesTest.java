package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.interop.InteropRelay;
import io.tern.server.origin.harness.ChromiumPage;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 25's end-to-end tests on the real stack: ffmpeg publishes 320×180 noise at 1.5 Mbit/s over
 * RTMP into an in-process {@code tern origin} with the swarm on, its Nostr relay on /nostr and its
 * TURN relay in the process ({@code --turn-config}); Debian Chromium pages open the product's
 * watch page {@code /live/cam1/?relay=udp}, so that every peer connection goes through that TURN
 * relay over UDP ({@code swarm-pages.js} drives them). Every buffer a page appends is checked
 * against the SHA-256s the origin attested in its playlists. The stream has 0.5 s parts
 * (PART-HOLD-BACK 1.5 s), as tern-swarm's own browser test has: at the 0.2 s default
 * (PART-HOLD-BACK 0.625 s) a part is needed about 0.6 s after it is listed, and on a loaded machine
 * the pages then took 0.21 and 0.48 of their bytes from peers. A stall is a {@code waiting} after a
 * page's first 2 s, not from a seek; past two runnable tasks per core the pages' own CPU starves
 * and hls.js stalls whatever the swarm does, so there stalls are logged, not asserted, as in
 * tern-swarm's browser tests.
 */
class SwarmRelayPagesTest {
    private static final int PLAY_SECONDS = 20;
    private static final long PAGES_TIMEOUT_MS = 75_000;

    @Test
    @SuppressWarnings("unchecked")
    void fourPagesRelayedThroughTheInProcessTurnOverUdpTakeMostBytesFromEachOtherWithNoStall() throws Exception {
        Map<String, Object> run = play(4, List.of());
        List<Map<String, Object>> pages = (List<Map<String, Object>>) run.get("pages");
        Map<String, Object> steady = (Map<String, Object>) run.get("steady");
        for (Map<String, Object> page : pages) {
            assertPlayedCleanOverTheRelay(page, (Double) run.get("maxLoadPerCore"));
            assertThat(page.get("bans")).as("bans: %s", page).isEqualTo(0.0);
            assertThat(page.get("verifyFailures"))
                    .as("verify failures: %s", page)
                    .isEqualTo(0.0);
        }
        assertThat((Double) steady.get("offload"))
                .as("offload once all four pages play: %s", steady)
                .isGreaterThan(0.5);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFifthPageThatCorruptsItsSendsIsBannedAndNoCorruptByteReachesTheOthers() throws Exception {
        Map<String, Object> run = play(5, List.of(4));
        List<Map<String, Object>> honest = ((List<Map<String, Object>>) run.get("pages")).subList(0, 4);
        double bans = 0;
        for (Map<String, Object> page : honest) {
            assertPlayedCleanOverTheRelay(page, (Double) run.get("maxLoadPerCore"));
            assertThat((Double) page.get("verifyFailures"))
                    .as("at most the one bad object before the ban: %s", page)
                    .isLessThanOrEqualTo(1.0);
            bans += (Double) page.get("bans");
        }
        assertThat(bans).as("the corrupting page was banned: %s", honest).isGreaterThanOrEqualTo(1.0);
        assertThat(honest.stream()
                        .mapToDouble(p -> (Double) ((Map<String, Object>) p.get("bytes")).get("peer"))
                        .sum())
                .as("the honest pages shared parts")
                .isPositive();
    }

    /** The origin's in-process TURN relay for a test: UDP on loopback, REST secret generated and shared. */
    static void writeTurnConfig(Path file) throws IOException {
        int relayBase = 31000 + (int) (System.nanoTime() % 100) * 100;
        Files.write(
                file,
                List.of(
                        "listening-ip=127.0.0.1",
                        "relay-ip=127.0.0.1",
                        "listening-port=" + InteropRelay.freePort(),
                        "min-port=" + relayBase,
                        "max-port=" + (relayBase + 99),
                        "realm=swarm.test",
                        "allow-loopback-peers",
                        "no-tls",
                        "no-dtls"));
    }

    /** Plays {@code pageCount} pages of a fresh origin's swarm stream; {@code corrupt}: the pages that corrupt their sends. */
    private static Map<String, Object> play(int pageCount, List<Integer> corrupt) throws Exception {
        Assumptions.assumeTrue(
                SwarmRelayPagesTest.class.getResource("/io/tern/server/origin/web/swarm/index.js") != null,
                "the build packaged no swarm library (tern-swarm/src)");
        FfmpegPublisher.require();
        ChromiumPage.require();
        Path dir = Files.createTempDirectory("tern-swarm-relay");
        writeTurnConfig(dir.resolve("turn.conf"));
        // Separate renditions, as the swarm was tuned and measured: with the muxed default the same
        // four pages took 0.47 of their bytes from peers in the one run made (issue 26 measures it).
        try (OriginFixture origin = new OriginFixture(
                        List.of("[stream cam1]", "swarm = on", "part-target-ms = 500", "renditions = separate"),
                        "no-publish-auth",
                        "nostr-db=" + dir.resolve("relay.db"),
                        "swarm-key-file=" + dir.resolve("swarm.key"),
                        "turn-config=" + dir.resolve("turn.conf"));
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmpLight(origin.rtmpUrl("cam1"))) {
            origin.awaitStream("cam1", 30_000);
            Map<String, Object> run = ChromiumPage.swarmPages(
                    origin.url("/live/cam1/?relay=udp"), pageCount, PLAY_SECONDS, corrupt, PAGES_TIMEOUT_MS);
            System.out.printf(
                    "swarm relay pages (%d, corrupting %s): steady %s, total %s, load per core %.1f (max %.1f)%n",
                    pageCount, corrupt, run.get("steady"), run.get("total"), (Double) run.get("loadPerCore"), (Double)
                            run.get("maxLoadPerCore"));
            for (Object page : (List<Object>) run.get("pages")) {
                System.out.println("  page: " + page);
            }
            assertThat(run.get("steady"))
                    .as("every page played past the warm-up: %s", run)
                    .isNotNull();
            assertThat(ffmpeg.isAlive()).as("ffmpeg: %s", ffmpeg.log()).isTrue();
            return run;
        } finally {
            Harness.deleteTree(dir);
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertPlayedCleanOverTheRelay(Map<String, Object> page, double loadPerCore) {
        assertThat(page.get("swarm")).as("the swarm started: %s", page).isEqualTo("on");
        assertThat((Double) page.get("currentTime")).as("played: %s", page).isGreaterThan((double) PLAY_SECONDS);
        assertThat((Double) page.get("appended")).as("appended: %s", page).isPositive();
        assertThat(page.get("foreign"))
                .as("every appended buffer is an object the origin attested: %s", page)
                .isEqualTo(0.0);
        assertThat((List<String>) page.get("routesSeen"))
                .as("every connection relayed by the in-process TURN over UDP: %s", page)
                .isNotEmpty()
                .allMatch("relay/udp"::equals);
        double stalls = (Double) page.get("stalls");
        if (loadPerCore > 2) {
            System.out.printf("  not asserted at load %.1f per core: %.0f stalls%n", loadPerCore, stalls);
        } else {
            assertThat(stalls)
                    .as("no stall once playing: %s", page.get("events"))
                    .isZero();
        }
    }
}
