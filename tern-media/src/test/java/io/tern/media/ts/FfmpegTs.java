package io.tern.media.ts;

import io.tern.testkit.ExternalPeers;
import io.tern.testkit.FfmpegSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real MPEG-TS from ffmpeg: 1280x720 30 fps libx264 (GOP 1 s, B-frames, so PTS ≠ DTS) and AAC,
 * and ffprobe's view of its packets. A missing ffmpeg skips, or fails with CI=true (ExternalPeers).
 */
final class FfmpegTs {
    record Packet(int stream, long pts, long dts, boolean key) {}

    private FfmpegTs() {}

    static Path generate(Path dir, int seconds) throws Exception {
        require("ffmpeg");
        require("ffprobe");
        Path ts = dir.resolve("fixture-" + seconds + "s.ts");
        run(FfmpegSource.file("ffmpeg")
                .bFrames(2)
                .seconds(seconds)
                .format("mpegts")
                .command(ts.toString()));
        return ts;
    }

    static List<Packet> probe(Path ts) throws Exception {
        List<Packet> out = new ArrayList<>();
        for (String line : run(List.of(
                "ffprobe",
                "-v",
                "error",
                "-show_entries",
                "packet=stream_index,pts,dts,flags",
                "-of",
                "compact=p=0",
                ts.toString()))) {
            if (!line.startsWith("stream_index=")) {
                continue;
            }
            int stream = -1;
            long pts = -1;
            long dts = -1;
            boolean key = false;
            for (String kv : line.split("\\|")) {
                String[] p = kv.split("=", 2);
                if (p.length < 2) {
                    continue;
                }
                switch (p[0]) {
                    case "stream_index" -> stream = Integer.parseInt(p[1]);
                    case "pts" -> pts = Long.parseLong(p[1]);
                    case "dts" -> dts = Long.parseLong(p[1]);
                    case "flags" -> key = p[1].startsWith("K");
                    default -> {}
                }
            }
            out.add(new Packet(stream, pts, dts, key));
        }
        return out;
    }

    static void require(String tool) {
        ExternalPeers.require(tool, "ffmpeg");
    }

    static List<String> run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines =
                new String(p.getInputStream().readAllBytes()).lines().toList();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(command.get(0) + " failed: " + String.join("\n", lines));
        }
        return lines;
    }

    static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }
}
