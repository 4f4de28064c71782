package io.tern.netty.srt;

import io.tern.testkit.ExternalPeers;
import io.tern.testkit.FfmpegSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real SRT peers: Debian's ffmpeg/ffprobe (libsrt 1.5) and srt-live-transmit (srt-tools).
 * Found through {@link ExternalPeers}: a missing one skips the test, or fails it with CI=true.
 */
public final class SrtPeers {
    record Result(int exit, String output) {}

    record Packet(int stream, long pts, long dts, boolean key) {}

    private SrtPeers() {}

    static void requireAll() {
        ExternalPeers.require("ffmpeg", "ffmpeg");
        ExternalPeers.require("ffprobe", "ffmpeg");
        ExternalPeers.require("srt-live-transmit", "srt-tools");
    }

    static Result run(List<String> command, int timeoutSeconds) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " did not finish in " + timeoutSeconds + " s");
        }
        return new Result(p.exitValue(), new String(out));
    }

    private static Path cached;

    /**
     * 1280x720 30 fps libx264 (GOP 1 s) + AAC, 4 s long, as MPEG-TS; made once per test JVM.
     */
    static synchronized Path fixture() throws Exception {
        if (cached == null) {
            Path dir = java.nio.file.Files.createTempDirectory("tern-srt-fixture");
            dir.toFile().deleteOnExit();
            cached = fixture(dir, 4);
            cached.toFile().deleteOnExit();
        }
        return cached;
    }

    /** 1280x720 30 fps libx264 (GOP 1 s) + AAC, {@code seconds} long, as {@code dir/fixture.ts}. */
    public static Path fixture(Path dir, int seconds) throws Exception {
        Path ts = dir.resolve("fixture.ts");
        Result r = run(
                FfmpegSource.file("ffmpeg").seconds(seconds).format("mpegts").command(ts.toString()), 120);
        if (r.exit() != 0) {
            throw new IllegalStateException("ffmpeg fixture: " + r.output());
        }
        return ts;
    }

    static List<Packet> probe(Path ts) throws Exception {
        Result r = run(
                List.of(
                        "ffprobe",
                        "-v",
                        "error",
                        "-show_entries",
                        "packet=stream_index,pts,dts,flags",
                        "-of",
                        "compact=p=0",
                        ts.toString()),
                60);
        List<Packet> out = new ArrayList<>();
        for (String line : r.output().lines().toList()) {
            if (!line.startsWith("stream_index=")) {
                continue;
            }
            int stream = -1;
            long pts = -1;
            long dts = -1;
            boolean key = false;
            for (String kv : line.split("\\|")) {
                String[] p = kv.split("=", 2);
                if (p.length == 2) {
                    switch (p[0]) {
                        case "stream_index" -> stream = Integer.parseInt(p[1]);
                        case "pts" -> pts = Long.parseLong(p[1]);
                        case "dts" -> dts = Long.parseLong(p[1]);
                        case "flags" -> key = p[1].startsWith("K");
                        default -> {}
                    }
                }
            }
            out.add(new Packet(stream, pts, dts, key));
        }
        return out;
    }
}
