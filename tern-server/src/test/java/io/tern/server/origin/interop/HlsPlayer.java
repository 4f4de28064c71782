package io.tern.server.origin.interop;

import io.tern.netty.http.CacheControl;
import io.tern.netty.http.HttpLimits;
import io.tern.netty.http.HttpRoutes;
import io.tern.netty.http.HttpServer;
import io.tern.netty.http.HttpService;
import io.tern.netty.http.SharedBody;
import io.tern.server.origin.harness.ChromiumPage;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.harness.Json;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * hls.js in Debian's headless Chromium, playing one stream in low-latency mode: the page
 * ({@code src/test/origin/hls-player.html}) and hls.js are served by a small server of their own,
 * so the player reaches the origin cross-origin, as it would from a website.
 */
final class HlsPlayer implements AutoCloseable {
    /** One second of playback, as the page sampled it. */
    record Sample(double wall, double media, double latency, Double pdtLatency, double buffer) {}

    /** What the page reported. */
    record Playback(
            List<Sample> samples,
            int stalls,
            int waiting,
            List<Object> errors,
            int parts,
            int fragments,
            Double partTarget,
            boolean lowLatency,
            int droppedFrames,
            int totalFrames,
            int width,
            int height,
            Map<String, Object> raw) {

        /** Samples after the first {@code seconds} of playback (the player settling on the edge). */
        List<Sample> after(double seconds) {
            return samples.stream().filter(s -> s.wall() >= seconds).toList();
        }

        double maxLatency(double afterSeconds) {
            return after(afterSeconds).stream()
                    .mapToDouble(Sample::latency)
                    .max()
                    .orElse(Double.NaN);
        }

        double maxPdtLatency(double afterSeconds) {
            return after(afterSeconds).stream()
                    .filter(s -> s.pdtLatency() != null)
                    .mapToDouble(Sample::pdtLatency)
                    .max()
                    .orElse(Double.NaN);
        }

        double meanLatency(double afterSeconds) {
            return after(afterSeconds).stream()
                    .mapToDouble(Sample::latency)
                    .average()
                    .orElse(Double.NaN);
        }

        double meanPdtLatency(double afterSeconds) {
            return after(afterSeconds).stream()
                    .filter(s -> s.pdtLatency() != null)
                    .mapToDouble(Sample::pdtLatency)
                    .average()
                    .orElse(Double.NaN);
        }

        /** Media seconds played per wall second, first to last sample. */
        double advanceRate() {
            Sample first = samples.get(0);
            Sample last = samples.get(samples.size() - 1);
            return (last.media() - first.media()) / (last.wall() - first.wall());
        }

        String summary() {
            return String.format(
                    "%d samples, latency mean %.3f s max %.3f s, PDT latency mean %.3f s max %.3f s, stalls %d,"
                            + " waiting %d, advance %.3f media s/s, parts %d, fragments %d, dropped %d/%d frames,"
                            + " errors %s",
                    samples.size(),
                    meanLatency(3),
                    maxLatency(3),
                    meanPdtLatency(3),
                    maxPdtLatency(3),
                    stalls,
                    waiting,
                    advanceRate(),
                    parts,
                    fragments,
                    droppedFrames,
                    totalFrames,
                    errors);
        }
    }

    private final SharedBody page;
    private final SharedBody hls;
    private final HttpServer server;

    HlsPlayer() throws Exception {
        ChromiumPage.require();
        Harness.require("hls.js", Harness.npmModule("hls.js"));
        page = SharedBody.of(
                Files.readAllBytes(Harness.ORIGIN_DIR.resolve("hls-player.html")), "text/html; charset=utf-8");
        hls = SharedBody.of(
                Files.readAllBytes(Harness.ORIGIN_DIR.resolve("node_modules/hls.js/dist/hls.min.js")),
                "text/javascript");
        HttpRoutes routes = HttpRoutes.builder()
                .get("/player.html", "page", ex -> ex.respond(page, CacheControl.noCache()))
                .get("/hls.min.js", "page", ex -> ex.respond(hls, CacheControl.maxAge(3600)))
                .build();
        server = HttpServer.builder(new HttpService(routes, HttpLimits.DEFAULTS))
                .listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .start();
    }

    /** Plays {@code src} for {@code seconds} of playback. */
    @SuppressWarnings("unchecked")
    Playback play(String src, int seconds) throws Exception {
        String url = "http://127.0.0.1:" + server.port() + "/player.html?seconds=" + seconds + "&src="
                + URLEncoder.encode(src, StandardCharsets.UTF_8);
        Map<String, Object> page = ChromiumPage.open(url, "window.ternResult", false, seconds * 1000L + 45_000);
        Map<String, Object> result = (Map<String, Object>) page.get("result");
        if (result.get("error") != null) {
            throw new AssertionError("the player failed: " + result.get("error") + "; " + result.get("errors")
                    + "; console: " + page.get("console"));
        }
        List<Sample> samples = new ArrayList<>();
        for (Object s : Json.list(result, "samples")) {
            Object pdt = Json.at(s, "pdtLatency");
            samples.add(new Sample(
                    number(s, "wall"),
                    number(s, "media"),
                    number(s, "latency"),
                    pdt == null ? null : ((Number) pdt).doubleValue(),
                    number(s, "buffer")));
        }
        return new Playback(
                samples,
                (int) number(result, "stalls"),
                (int) number(result, "waiting"),
                Json.list(result, "errors"),
                (int) number(result, "parts"),
                (int) number(result, "fragments"),
                result.get("partTarget") == null ? null : number(result, "partTarget"),
                Boolean.TRUE.equals(result.get("lowLatency")),
                (int) number(result, "droppedFrames"),
                (int) number(result, "totalFrames"),
                (int) number(result, "width"),
                (int) number(result, "height"),
                result);
    }

    private static double number(Object node, String key) {
        Object v = Json.at(node, key);
        return v == null ? 0 : ((Number) v).doubleValue();
    }

    @Override
    public void close() {
        server.close();
        page.release();
        hls.release();
    }
}
