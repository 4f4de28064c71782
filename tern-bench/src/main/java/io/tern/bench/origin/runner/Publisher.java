package io.tern.bench.origin.runner;

import io.tern.bench.runner.Commands;
import io.tern.bench.runner.ServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The same live stream into every origin: ffmpeg generating {@code testsrc2} and {@code sine} in
 * real time ({@code -re}), 720p30 H.264 (libx264 veryfast, zerolatency, a keyframe every second)
 * at 2.5 Mbit/s and AAC at 128 kbit/s, published over RTMP. Bounded: it stops by itself after
 * {@code seconds}.
 */
final class Publisher {
    private final String ffmpeg;
    private String version;

    Publisher(String ffmpeg) {
        this.ffmpeg = ffmpeg;
    }

    synchronized String version() {
        if (version == null) {
            version = Commands.firstLine(List.of(ffmpeg, "-version"));
        }
        return version;
    }

    static List<String> command(String ffmpeg, String url, long seconds) {
        return List.of(
                ffmpeg,
                "-hide_banner",
                "-nostdin",
                "-loglevel",
                "error",
                "-re",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1280x720:rate=30",
                "-re",
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=440:sample_rate=48000",
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-tune",
                "zerolatency",
                "-pix_fmt",
                "yuv420p",
                "-g",
                "30",
                "-keyint_min",
                "30",
                "-sc_threshold",
                "0",
                "-b:v",
                "2500k",
                "-maxrate",
                "2500k",
                "-bufsize",
                "2500k",
                "-c:a",
                "aac",
                "-b:a",
                "128k",
                "-ar",
                "48000",
                "-t",
                String.format(Locale.ROOT, "%d", seconds),
                "-f",
                "flv",
                url);
    }

    ServerProcess start(String url, long seconds, Path runDir) throws IOException, InterruptedException {
        return ServerProcess.start(
                command(ffmpeg, url, seconds), runDir, runDir.resolve("ffmpeg.log"), () -> true, "ffmpeg", 5_000);
    }
}
