package io.tern.netty.rtmp;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    /** The GStreamer plugins the publisher pipeline needs, by their shared objects. */
    private static final List<String> GST_PLUGINS = List.of(
            "libgstrtmp2.so",
            "libgstx264.so",
            "libgstlibav.so",
            "libgstflv.so",
            "libgstvideotestsrc.so",
            "libgstaudiotestsrc.so");

    static void requireGstreamer() {
        require(
                Files.isExecutable(GST_LAUNCH) && gstPluginsPresent(),
                "gst-launch-1.0 with rtmp2sink, x264enc, avenc_aac and flvmux (apt: gstreamer1.0-tools,"
                        + " gstreamer1.0-plugins-base, -good, -bad, -ugly, gstreamer1.0-libav)");
    }

    private static boolean gstPluginsPresent() {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/usr/lib"), "*-linux-gnu*")) {
            for (Path dir : dirs) {
                Path plugins = dir.resolve("gstreamer-1.0");
                if (GST_PLUGINS.stream().allMatch(p -> Files.isRegularFile(plugins.resolve(p)))) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    static void requireNginxRtmp() {
        require(
                Files.isExecutable(NGINX) && Files.isRegularFile(NGINX_RTMP_MODULE),
                "nginx with the RTMP module (apt: nginx, libnginx-mod-rtmp)");
    }
}
