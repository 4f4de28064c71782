package io.tern.netty.rtmp;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The real RTMP peers. Outside CI a missing peer skips its test; with {@code CI=true} it fails, so
 * a CI machine without them can never pass silently.
 */
final class RtmpPeers {
    static final Path FFMPEG = Path.of("/usr/bin/ffmpeg");
    static final Path FFPROBE = Path.of("/usr/bin/ffprobe");
    static final Path GST_LAUNCH = Path.of("/usr/bin/gst-launch-1.0");
    static final Path NGINX = Path.of("/usr/sbin/nginx");
    static final Path NGINX_RTMP_MODULE = Path.of("/usr/lib/nginx/modules/ngx_rtmp_module.so");

    private RtmpPeers() {}

    static void require(boolean available, String what) {
        if (available) {
            return;
        }
        String message = what + " is not installed (see .ci/run)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        Assumptions.abort(message);
    }

    static void requireFfmpeg() {
        require(Files.isExecutable(FFMPEG) && Files.isExecutable(FFPROBE), "ffmpeg and ffprobe (apt: ffmpeg)");
    }

    static void requireGstreamer() {
        require(
                Files.isExecutable(GST_LAUNCH)
                        && exitsZero(
                                GST_LAUNCH
                                        .getParent()
                                        .resolve("gst-inspect-1.0")
                                        .toString(),
                                "rtmp2sink")
                        && exitsZero(
                                GST_LAUNCH
                                        .getParent()
                                        .resolve("gst-inspect-1.0")
                                        .toString(),
                                "x264enc")
                        && exitsZero(
                                GST_LAUNCH
                                        .getParent()
                                        .resolve("gst-inspect-1.0")
                                        .toString(),
                                "avenc_aac"),
                "gst-launch-1.0 with rtmp2sink, x264enc and avenc_aac (apt: gstreamer1.0-tools,"
                        + " gstreamer1.0-plugins-bad, gstreamer1.0-plugins-ugly, gstreamer1.0-libav)");
    }

    static void requireNginxRtmp() {
        require(
                Files.isExecutable(NGINX) && Files.isRegularFile(NGINX_RTMP_MODULE),
                "nginx with the RTMP module (apt: nginx, libnginx-mod-rtmp)");
    }

    static boolean exitsZero(String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
