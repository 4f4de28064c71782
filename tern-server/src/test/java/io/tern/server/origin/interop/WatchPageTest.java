package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.origin.OriginLauncher;
import io.tern.server.origin.harness.ChromiumPage;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The watch page as a new user opens it: ffmpeg publishes {@code live/cam1}, the index page links
 * to it, and Debian's Chromium (driven by playwright-core) opens {@code /live/cam1/} from the origin
 * itself, with the hls.js the build put in the jar. Playback advances, and the latency the page
 * shows (wall clock against EXT-X-PROGRAM-DATE-TIME) stays under 1.5 s. The page is saved as
 * {@code target/watch-page.png} (the README's {@code docs/watch-page.png} is a copy of one).
 */
class WatchPageTest {
    /** Seconds of playback sampled after the player settled on the live edge (it catches up at up to 1.5x). */
    private static final int SAMPLES = 8;

    private static final double SETTLE_SECONDS = 5;

    @Test
    void chromiumPlaysTheWatchPageAtLowLatencyAndTheIndexLinksIt() throws Exception {
        FfmpegPublisher.require();
        ChromiumPage.require();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (OriginFixture origin = new OriginFixture()) {
            String base = "http://127.0.0.1:" + origin.server.httpPort();
            assertThat(OriginLauncher.announcement(origin.server))
                    .contains("Watch: " + base + "/live/cam1/ (every live stream: " + base + "/)")
                    .contains("API: " + base + "/api/v1/streams (loopback only");
            origin.server
                    .registry()
                    .addPublishListener(OriginLauncher.publishAnnouncer(
                            new PrintStream(printed, true, StandardCharsets.UTF_8), origin.server));
            try (FfmpegPublisher ffmpeg = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0)) {
                watch(origin, ffmpeg);
            }
            assertThat(printed.toString(StandardCharsets.UTF_8))
                    .as("printed on the publish")
                    .isEqualTo("Live: live/cam1, watch at " + base + "/live/cam1/\n");
        }
    }

    @SuppressWarnings("unchecked")
    private static void watch(OriginFixture origin, FfmpegPublisher ffmpeg) throws Exception {
        {
            origin.awaitStream("cam1", 20_000);

            HttpResponse<String> index = origin.get("/");
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            assertThat(index.body()).contains("<a href=\"/live/cam1/\">live/cam1</a>");
            HttpResponse<String> redirect = origin.get("/live/cam1");
            assertThat(redirect.statusCode()).isEqualTo(301);
            assertThat(redirect.headers().firstValue("location")).hasValue("/live/cam1/");
            assertThat(origin.get("/live/bad%20name/").statusCode()).isEqualTo(404);
            assertThat(origin.get("/_tern/hls.min.js").body()).contains("lowLatencyMode");

            Path screenshot = Path.of(System.getProperty("basedir", "."), "target", "watch-page.png");
            Files.createDirectories(screenshot.getParent());
            String done = "(w => w && w.samples.filter(s => s.wall >= " + SETTLE_SECONDS + ").length >= " + SAMPLES
                    + " ? w : null)(window.ternWatch)";
            Map<String, Object> page =
                    ChromiumPage.open(origin.url("/live/cam1/"), done, false, 45_000, screenshot, 900, 860);

            Map<String, Object> watch = (Map<String, Object>) page.get("result");
            List<Map<String, Object>> samples = ((List<Object>) watch.get("samples"))
                    .stream()
                            .map(s -> (Map<String, Object>) s)
                            .filter(s -> (Double) s.get("wall") >= SETTLE_SECONDS)
                            .toList();
            String summary = "samples " + samples + ", errors " + watch.get("errors");
            Map<String, Object> first = samples.get(0);
            Map<String, Object> last = samples.get(samples.size() - 1);
            double wall = (Double) last.get("wall") - (Double) first.get("wall");
            double media = (Double) last.get("media") - (Double) first.get("media");
            assertThat(media / wall)
                    .as("media seconds per wall second; %s", summary)
                    .isBetween(0.8, 1.25);
            for (Map<String, Object> s : samples) {
                String shown = (String) s.get("shown");
                assertThat(shown).as("the latency shown; %s", summary).matches("\\d+\\.\\d\\d s");
                assertThat(Double.parseDouble(shown.replace(" s", "")))
                        .as("the latency shown; %s", summary)
                        .isLessThan(1.5);
                assertThat((Double) s.get("bitsPerSecond"))
                        .as("the bitrate shown; %s", summary)
                        .isGreaterThan(500_000.0);
                assertThat(s.get("dropped")).as("dropped frames are counted").isNotNull();
                assertThat((Double) s.get("buffer"))
                        .as("the buffer shown; %s", summary)
                        .isNotNull();
            }
            assertThat(watch.get("stalls")).as("stalls; %s", summary).isEqualTo(0.0);
            assertThat(Json.at(page, "resources"))
                    .as("hls.js came from the origin itself")
                    .asString()
                    .contains(origin.url("/_tern/hls.min.js"));
            assertThat(Files.size(screenshot)).as("the screenshot").isGreaterThan(10_000);
            assertThat(ffmpeg.isAlive()).as("ffmpeg: %s", ffmpeg.log()).isTrue();
        }
    }
}
