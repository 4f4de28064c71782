package io.tern.bench.origin.runner;

import io.tern.bench.origin.playlist.MediaPlaylist;
import io.tern.bench.origin.playlist.MultivariantPlaylist;
import io.tern.bench.origin.playlist.Playlist;
import io.tern.bench.origin.playlist.PlaylistParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Waits, bounded, until an origin serves the published stream with enough segments to join. */
final class StreamProbe {
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** What the probe found: the first media playlist of the stream. */
    record Found(MediaPlaylist playlist, long waitedMs) {}

    /**
     * Polls {@code entryPath} on 127.0.0.1:{@code port} every 200 ms until its (first variant's)
     * media playlist lists at least {@code segments} complete segments.
     */
    Found await(int port, String entryPath, int segments, long timeoutMs, java.util.function.BooleanSupplier alive)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeoutMs * 1_000_000L;
        String last = "nothing yet";
        while (System.nanoTime() < deadline) {
            if (!alive.getAsBoolean()) {
                throw new IOException("the server or the publisher exited before the stream was served");
            }
            try {
                MediaPlaylist mp = media(port, entryPath);
                if (mp != null && mp.segments().size() >= segments) {
                    return new Found(mp, (System.nanoTime() - start) / 1_000_000L);
                }
                last = mp == null ? "no playlist" : mp.segments().size() + " segment(s)";
            } catch (IOException | IllegalArgumentException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException("the stream was not served with " + segments + " segments within " + timeoutMs + " ms at "
                + entryPath + " (last: " + last + ")");
    }

    private MediaPlaylist media(int port, String path) throws IOException, InterruptedException {
        Playlist p = get(port, path);
        if (p instanceof MultivariantPlaylist mv) {
            return get(port, mv.playlistsOfFirstVariant().get(0)) instanceof MediaPlaylist m ? m : null;
        }
        return (MediaPlaylist) p;
    }

    private Playlist get(int port, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString(java.nio.charset.StandardCharsets.ISO_8859_1));
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + " for " + path);
        }
        return PlaylistParser.parse(path, r.body());
    }
}
