package io.tern.server.origin.interop;

import io.tern.hls.testing.M3u8;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simple low-latency viewer, as LL-HLS players behave: it downloads the preload-hinted part,
 * then asks a blocking reload for it and repeats, on one keep-alive HTTP/1.1 connection. Counts
 * its parts and errors; runs on a thread of its own until {@link #stop}.
 */
final class LlViewer implements Runnable {
    private final String playlistUrl;
    private final String base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicInteger parts = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    private final Thread thread;

    /** @param playlistUrl a media playlist ({@code .../video.m3u8}) */
    LlViewer(String playlistUrl) {
        this.playlistUrl = playlistUrl;
        this.base = playlistUrl.substring(0, playlistUrl.lastIndexOf('/') + 1);
        this.thread = new Thread(this, "ll-viewer");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            M3u8 playlist = M3u8.parse(get(playlistUrl, HttpResponse.BodyHandlers.ofString()));
            for (int round = 0; running.get() && round < 100_000; round++) {
                M3u8.Seg open = playlist.segments.get(playlist.segments.size() - 1);
                long msn = open.complete() ? open.msn + 1 : open.msn;
                int part = open.complete() ? 0 : open.parts.size();
                String hint = playlist.preloadHints.get(0).get("URI");
                if (get(base + hint, HttpResponse.BodyHandlers.ofByteArray()).length > 0) {
                    parts.incrementAndGet();
                }
                playlist = M3u8.parse(get(
                        playlistUrl + "?_HLS_msn=" + msn + "&_HLS_part=" + part, HttpResponse.BodyHandlers.ofString()));
            }
        } catch (Exception e) {
            if (running.get()) {
                errors.incrementAndGet();
            }
        }
    }

    private <T> T get(String url, HttpResponse.BodyHandler<T> body) throws Exception {
        HttpResponse<T> response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(15))
                        .build(),
                body);
        if (response.statusCode() != 200) {
            errors.incrementAndGet();
            throw new IllegalStateException(url + ": " + response.statusCode());
        }
        return response.body();
    }

    void stop() throws InterruptedException {
        running.set(false);
        thread.join(20_000);
        http.close();
    }
}
