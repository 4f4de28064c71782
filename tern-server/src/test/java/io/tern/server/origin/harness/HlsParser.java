package io.tern.server.origin.harness;

import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * hls-parser (npm), in strict mode, from Java: one Node process ({@code parse-playlist.js}) for
 * many playlists. {@link #parse} returns hls-parser's object as JSON maps, or the reason it
 * rejected the text.
 */
public final class HlsParser implements AutoCloseable {
    private final Process node;
    private final Writer in;
    private final BufferedReader out;
    private int nextId;

    private HlsParser(Process node) {
        this.node = node;
        this.in = new OutputStreamWriter(node.getOutputStream(), StandardCharsets.UTF_8);
        this.out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    }

    public static void require() {
        Harness.require("hls-parser", Harness.node(), Harness.npmModule("hls-parser"));
    }

    public static HlsParser start() throws IOException {
        require();
        Process node = new ProcessBuilder("node", "parse-playlist.js")
                .directory(Harness.ORIGIN_DIR.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        return new HlsParser(node);
    }

    /** What hls-parser said about {@code playlist}. */
    public record Result(boolean ok, Map<String, Object> playlist, String error) {}

    @SuppressWarnings("unchecked")
    public Result parse(String playlist) throws IOException, InterruptedException {
        int id = ++nextId;
        in.write("{\"id\":" + id + ",\"text\":" + Json.quote(playlist) + "}\n");
        in.flush();
        String line = readLine(10_000);
        Map<String, Object> answer = (Map<String, Object>) Json.parse(line);
        if (((Number) answer.get("id")).intValue() != id) {
            fail("hls-parser answered request " + answer.get("id") + " instead of " + id);
        }
        return Boolean.TRUE.equals(answer.get("ok"))
                ? new Result(true, (Map<String, Object>) answer.get("playlist"), null)
                : new Result(false, null, (String) answer.get("error"));
    }

    private String readLine(long timeoutMs) throws InterruptedException {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try {
            String text = line.get(timeoutMs, TimeUnit.MILLISECONDS);
            if (text == null) {
                fail("hls-parser's process ended");
            }
            return text;
        } catch (ExecutionException | TimeoutException e) {
            fail("hls-parser did not answer within " + timeoutMs + " ms: " + e);
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
        try {
            if (!node.waitFor(5, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
        } catch (InterruptedException e) {
            node.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
