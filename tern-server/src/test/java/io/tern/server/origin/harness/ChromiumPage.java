package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Opens one page in Debian's headless Chromium, driven by playwright-core ({@code browser-page.js}
 * in {@link Harness#ORIGIN_DIR}), with the flags every Tern browser test uses and a fresh profile,
 * and returns what the page reported as JSON: {@code result} (the value of the page's result
 * expression once set), {@code navigation} and {@code resources} (URL and {@code nextHopProtocol}:
 * {@code h2} or {@code http/1.1}), {@code console} and {@code browser}.
 */
public final class ChromiumPage {
    private static final String SCRIPT = "browser-page.js";

    private ChromiumPage() {}

    /** Skips or fails (CI) unless node, Chromium and playwright-core are there. */
    public static void require() {
        Harness.require(
                "the browser harness", Harness.node(), Harness.chromium(), Harness.npmModule("playwright-core"));
    }

    /**
     * @param url        the page
     * @param result     a JavaScript expression the page sets when done (e.g. {@code window.ternResult}),
     *                   or null to return once the page has loaded
     * @param insecure   accept the test's self-signed certificate
     * @param timeoutMs  for the browser and the page
     */
    public static Map<String, Object> open(String url, String result, boolean insecure, long timeoutMs)
            throws IOException, InterruptedException {
        return open(url, result, insecure, timeoutMs, null, 0, 0);
    }

    /**
     * As {@link #open(String, String, boolean, long)}, in a {@code width} × {@code height} viewport,
     * saving the page as a PNG to {@code screenshot} once the result is set.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> open(
            String url, String result, boolean insecure, long timeoutMs, Path screenshot, int width, int height)
            throws IOException, InterruptedException {
        require();
        String options = "{\"url\":" + Json.quote(url) + ",\"result\":" + (result == null ? "null" : Json.quote(result))
                + ",\"timeoutMs\":" + timeoutMs + ",\"ignoreCertificateErrors\":" + insecure
                + (screenshot == null ? "" : ",\"screenshot\":" + Json.quote(screenshot.toString()))
                + (width <= 0 ? "" : ",\"viewport\":{\"width\":" + width + ",\"height\":" + height + "}") + "}";
        return run(SCRIPT, options, timeoutMs + 30_000);
    }

    /**
     * Runs {@code swarm-pages.js}: {@code pages} watch pages of one swarm stream in one Chromium,
     * each at {@code url}, played until every page has played {@code playSeconds} past a warm-up
     * (bounded by {@code timeoutMs}); the pages listed in {@code corrupt} flip a bit in every CHUNK
     * they send. Returns the script's JSON: {@code pages} (each page's swarm figures, stalls,
     * routes), {@code steady} (offload from the warm-up to the end), {@code loadPerCore}.
     */
    public static Map<String, Object> swarmPages(
            String url, int pages, int playSeconds, List<Integer> corrupt, long timeoutMs)
            throws IOException, InterruptedException {
        require();
        String options = "{\"url\":" + Json.quote(url) + ",\"pages\":" + pages + ",\"playSeconds\":" + playSeconds
                + ",\"corrupt\":" + corrupt + ",\"timeoutMs\":" + timeoutMs + "}";
        return run("swarm-pages.js", options, timeoutMs + 90_000);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> run(String script, String options, long waitMs)
            throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("tern-chromium-home");
        Path stdout = home.resolve("stdout.txt");
        Path stderr = home.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder("node", script, options)
                .directory(Harness.ORIGIN_DIR.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        // Chromium's profile, NSS database and crash dumps go under a private HOME.
        builder.environment().put("HOME", home.toString());
        builder.environment().put("TMPDIR", home.toString());
        builder.environment().put("TERN_CHROMIUM", Harness.CHROMIUM.toString());
        Process node = builder.start();
        try {
            if (!node.waitFor(waitMs, TimeUnit.MILLISECONDS)) {
                fail("the browser did not finish in " + waitMs + " ms; stderr: " + Files.readString(stderr));
            }
            String out = Files.readString(stdout, StandardCharsets.UTF_8).trim();
            if (out.isEmpty()) {
                fail("the browser printed nothing, exit " + node.exitValue() + "; stderr: " + Files.readString(stderr));
            }
            Map<String, Object> json = (Map<String, Object>)
                    Json.parse(out.lines().reduce((a, b) -> b).orElseThrow());
            if (!Boolean.TRUE.equals(json.get("ok"))) {
                fail("the page failed: " + json.get("error") + "; stderr: " + Files.readString(stderr));
            }
            return json;
        } finally {
            node.descendants().forEach(ProcessHandle::destroyForcibly);
            node.destroyForcibly();
            Harness.deleteTree(home);
        }
    }
}
