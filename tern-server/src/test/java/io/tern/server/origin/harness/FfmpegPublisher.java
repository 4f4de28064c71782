package io.tern.server.origin.harness;

import io.tern.testkit.FfmpegSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * ffmpeg publishing the test stream ({@link FfmpegSource#live}: 720p30 {@code testsrc2} with
 * a 1 kHz {@code sine}, libx264 and stereo AAC at 48 kHz, in real time), as FLV over RTMP or
 * MPEG-TS over SRT. {@link #close()} ends the process this
 * fixture started, by its PID.
 */
public final class FfmpegPublisher implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final List<String> command;

    private FfmpegPublisher(Process process, Path log, List<String> command) {
        this.process = process;
        this.log = log;
        this.command = command;
    }

    public static void require() {
        Harness.require("the ffmpeg publisher", Harness.program("ffmpeg", "ffmpeg"));
    }

    /** Publishes to {@code url} ({@code rtmp://127.0.0.1:PORT/live/NAME?token=...}) for {@code seconds} (0: until closed). */
    public static FfmpegPublisher rtmp(String url, int seconds) throws IOException {
        return start(url, "flv", seconds);
    }

    /**
     * Publishes the browser tests' light stream to {@code url} until closed: 320×180 noise at a
     * constant 1.5 Mbit/s, so that several Chromium pages on two cores decode it in time.
     */
    public static FfmpegPublisher rtmpLight(String url) throws IOException {
        require();
        return start(FfmpegSource.live("ffmpeg")
                .noise(320, 180)
                .videoBitrate("1500k")
                .capRate()
                .stereo()
                .command(url));
    }

    /** Publishes to {@code url} ({@code srt://127.0.0.1:PORT?streamid=publish:live/NAME&mode=caller}). */
    public static FfmpegPublisher srt(String url, int seconds) throws IOException {
        return start(url, "mpegts", seconds);
    }

    /** The arguments, for the log and for tests of the command itself. */
    public static List<String> command(String url, String format, int seconds) {
        FfmpegSource stream = FfmpegSource.live("ffmpeg").stereo().format(format);
        if (seconds > 0) {
            stream.seconds(seconds);
        }
        return stream.command(url);
    }

    private static FfmpegPublisher start(String url, String format, int seconds) throws IOException {
        require();
        return start(command(url, format, seconds));
    }

    private static FfmpegPublisher start(List<String> command) throws IOException {
        Path log = Files.createTempFile("tern-ffmpeg", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new FfmpegPublisher(process, log, command);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for a publisher with a duration to finish; returns its exit code, or -1 if still running. */
    public int awaitExit(long timeoutMs) throws InterruptedException {
        return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** The command line and what ffmpeg printed (warnings and errors only). */
    public String log() {
        try {
            return String.join(" ", command) + "\n" + Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return String.join(" ", command) + "\n(log unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        Files.deleteIfExists(log);
    }
}
