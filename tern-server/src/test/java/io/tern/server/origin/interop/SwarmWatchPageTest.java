package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.origin.harness.ChromiumPage;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The watch page of a swarm stream, from the origin itself, with the library the build packaged
 * from tern-swarm/: two Debian Chromium pages open {@code /live/cam1/} while ffmpeg publishes over
 * RTMP; both start the swarm (the endpoint, the Nostr relay on /nostr), find each other, and at
 * least one takes verified bytes from the other; no object fails verification and no peer is banned.
 * The pages connect through the origin's in-process TURN relay ({@code ?relay=udp}): two Chromium
 * processes cannot resolve each other's mDNS host candidates here, so without it they rarely met.
 */
class SwarmWatchPageTest {
    private static final int PAGES = 2;

    @Test
    @SuppressWarnings("unchecked")
    void twoWatchPagesOfASwarmStreamShareVerifiedBytes() throws Exception {
        Assumptions.assumeTrue(
                SwarmWatchPageTest.class.getResource("/io/tern/server/origin/web/swarm/index.js") != null,
                "the build packaged no swarm library (tern-swarm/src)");
        FfmpegPublisher.require();
        ChromiumPage.require();
        Path dir = Files.createTempDirectory("tern-swarm-watch");
        ExecutorService browsers = Executors.newFixedThreadPool(PAGES);
        SwarmRelayPagesTest.writeTurnConfig(dir.resolve("turn.conf"));
        try (OriginFixture origin = new OriginFixture(
                        List.of("[stream cam1]", "swarm = on"),
                        "no-publish-auth",
                        "nostr-db=" + dir.resolve("relay.db"),
                        "swarm-key-file=" + dir.resolve("swarm.key"),
                        "turn-config=" + dir.resolve("turn.conf"));
                FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0)) {
            origin.awaitStream("cam1", 30_000);
            // Done once 15 samples carry the swarm's figures with a peer's bytes, or at once if the swarm did not
            // start.
            String done = "(w => w && (/^(failed|off)/.test(w.swarm)"
                    + " || w.samples.filter(s => s.swarm && s.swarm.peers > 0).length >= 15) ? w : null)(window.ternWatch)";
            List<Future<Map<String, Object>>> pages = new ArrayList<>();
            for (int i = 0; i < PAGES; i++) {
                pages.add(browsers.submit(
                        () -> ChromiumPage.open(origin.url("/live/cam1/?relay=udp"), done, false, 90_000)));
            }
            double peerBytes = 0;
            for (Future<Map<String, Object>> page : pages) {
                Map<String, Object> watch = (Map<String, Object>) page.get().get("result");
                assertThat(watch.get("swarm"))
                        .as("the swarm started: %s", watch.get("errors"))
                        .isEqualTo("on");
                List<Map<String, Object>> samples = ((List<Object>) watch.get("samples"))
                        .stream()
                                .map(s -> (Map<String, Object>) s)
                                .filter(s -> s.get("swarm") != null)
                                .toList();
                Map<String, Object> last =
                        (Map<String, Object>) samples.getLast().get("swarm");
                assertThat((Double) last.get("peers")).as("peers: %s", last).isGreaterThanOrEqualTo(1.0);
                assertThat(last.get("bans")).as("bans: %s", last).isEqualTo(0.0);
                assertThat(last.get("verifyFailures"))
                        .as("verify failures: %s", last)
                        .isEqualTo(0.0);
                assertThat((Double) last.get("httpBytes"))
                        .as("HTTP bytes: %s", last)
                        .isPositive();
                peerBytes += (Double) last.get("peerBytes");
                System.out.println("swarm watch page: " + last + ", stalls " + watch.get("stalls"));
            }
            assertThat(peerBytes).as("bytes taken from a peer, over both pages").isPositive();
            assertThat(ffmpeg.isAlive()).as("ffmpeg: %s", ffmpeg.log()).isTrue();
        } finally {
            browsers.shutdownNow();
            Harness.deleteTree(dir);
        }
    }
}
