package io.tern.server.origin.interop;

import io.tern.server.origin.harness.Harness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The origin tests' other real peers: ffprobe/ffmpeg as readers, GStreamer as a publisher; time-bounded. */
final class Peers {
    /** What a finished peer printed (stdout and stderr together, into a file so it never blocks). */
    record Result(int exitCode, String output) {
        /** The output's lines, blank ones left out. */
        List<String> lines() {
            return output.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private Peers() {}

    static void requireFfprobe() {
        Harness.require("ffprobe", Harness.program("ffprobe", "ffmpeg"), Harness.program("ffmpeg", "ffmpeg"));
    }

    static void requireGstreamer() {
        Harness.require("GStreamer's rtmp2sink", Harness.program("gst-launch-1.0", "gstreamer1.0-tools"));
    }

    static Process start(List<String> command, Path log) throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits at most {@code timeout}; a peer still running then is killed (the process this started). */
    static Result finish(Process process, Path log, Duration timeout) throws IOException, InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("did not finish within " + timeout + ": " + Files.readString(log));
        }
        return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    static Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Path log = Files.createTempFile("tern-peer", ".log");
        try {
            return finish(start(command, log), log, timeout);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** ffmpeg decodes {@code seconds} of {@code input}: every error line it prints (none when it is clean). */
    static Result decode(String input, int seconds) throws IOException, InterruptedException {
        return run(
                List.of(
                        "ffmpeg",
                        "-hide_banner",
                        "-nostdin",
                        "-v",
                        "error",
                        "-i",
                        input,
                        "-t",
                        Integer.toString(seconds),
                        "-f",
                        "null",
                        "-"),
                Duration.ofSeconds(seconds + 40L));
    }

    /** The decode times (seconds) of every packet of {@code input}'s first stream, as ffprobe reads them. */
    static List<Double> decodeTimes(String input) throws IOException, InterruptedException {
        Result r = run(
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-select_streams",
                        "0",
                        "-show_entries",
                        "packet=dts_time",
                        "-of",
                        "csv=p=0",
                        input),
                Duration.ofSeconds(40));
        return r.lines().stream().map(Double::parseDouble).toList();
    }

    /** ffprobe's compact view of the streams and format of {@code input}. */
    static Result probe(String input) throws IOException, InterruptedException {
        return run(
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-show_entries",
                        "stream=codec_type,codec_name,width,height,sample_rate,start_time,duration,nb_read_packets"
                                + ":format=duration",
                        "-count_packets",
                        "-of",
                        "compact",
                        input),
                Duration.ofSeconds(40));
    }

    /** GStreamer publishing a live 640x360 30 fps H.264 + AAC test stream for {@code seconds} with rtmp2sink. */
    static List<String> gstreamerPublish(String url, int seconds) {
        return List.of(
                "gst-launch-1.0",
                "-q",
                "videotestsrc",
                "is-live=true",
                "pattern=ball",
                "num-buffers=" + seconds * 30,
                "!",
                "video/x-raw,format=I420,width=640,height=360,framerate=30/1",
                "!",
                "x264enc",
                "tune=zerolatency",
                "speed-preset=veryfast",
                "key-int-max=30",
                "!",
                "h264parse",
                "!",
                "flvmux",
                "name=mux",
                "streamable=true",
                "!",
                "rtmp2sink",
                "location=" + url,
                "audiotestsrc",
                "is-live=true",
                "num-buffers=" + (int) Math.ceil(seconds * 48_000 / 1024.0),
                "samplesperbuffer=1024",
                "!",
                "audio/x-raw,rate=48000,channels=2",
                "!",
                "audioconvert",
                "!",
                "avenc_aac",
                "!",
                "aacparse",
                "!",
                "mux.");
    }
}
