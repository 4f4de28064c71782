package io.tern.bench.origin.runner;

import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.runner.Commands;
import io.tern.testkit.FfmpegSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The same live stream into every origin: the tests' {@link FfmpegSource#live} (720p30 H.264 at
 * 2.5 Mbit/s, AAC at 128 kbit/s, in real time), here with the rate capped, a 440 Hz tone and only
 * errors logged, published over RTMP. Bounded: it stops by itself after {@code seconds}.
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
        return FfmpegSource.live(ffmpeg)
                .logLevel("error")
                .toneHz(440)
                .capRate()
                .seconds(seconds)
                .format("flv")
                .command(url);
    }

    ServerProcess start(String url, long seconds, Path runDir) throws IOException, InterruptedException {
        return ServerProcess.start(
                command(ffmpeg, url, seconds), runDir, runDir.resolve("ffmpeg.log"), () -> true, "ffmpeg", 5_000);
    }
}
