package io.tern.media.ts;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real MPEG-TS from ffmpeg: 1280x720 30 fps libx264 (GOP 1 s, B-frames, so PTS ≠ DTS) and AAC,
 * and ffprobe's view of its packets. Outside CI a missing ffmpeg skips; with CI=true it fails.
 */
final class FfmpegTs {
    record Packet(int stream, long pts, long dts, boolean key) {}

    private FfmpegTs() {}

    static Path generate(Path dir, int seconds) throws Exception {
        require("ffmpeg");
        require("ffprobe");
        Path ts = dir.resolve("fixture-" + seconds + "s.ts");
        run(List.of(
                "ffmpeg",
                "-hide_banner",
                "-loglevel",
                "error",
                "-y",
                "-f",
                "lavfi",
                "-i",
                "testsrc2=size=1280x720:rate=30",
                "-f",
                "lavfi",
                "-i",
                "sine=frequency=440:sample_rate=48000",
                "-t",
                String.valueOf(seconds),
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-g",
                "30",
                "-bf",
                "2",
                "-pix_fmt",
                "yuv420p",
                "-c:a",
                "aac",
                "-b:a",
                "128k",
                "-f",
                "mpegts",
                ts.toString()));
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
        boolean ok;
        try {
            Process p = new ProcessBuilder(tool, "-version")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            ok = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ok = false;
        }
        if (!ok) {
            String message = tool + " is not installed (apt: ffmpeg)";
            if ("true".equals(System.getenv("CI"))) {
                fail(message);
            }
            Assumptions.abort(message);
        }
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
