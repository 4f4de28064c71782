package io.tern.netty.rtmp;

import io.tern.testkit.ExternalPeers;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The real RTMP peers, found through {@link ExternalPeers}: a missing one skips its test, or fails
 * it with {@code CI=true}.
 */
final class RtmpPeers {
    static final Path FFMPEG = Path.of("/usr/bin/ffmpeg");
    static final Path FFPROBE = Path.of("/usr/bin/ffprobe");
    static final Path GST_LAUNCH = Path.of("/usr/bin/gst-launch-1.0");
    static final Path NGINX = Path.of("/usr/sbin/nginx");
    static final Path NGINX_RTMP_MODULE = Path.of("/usr/lib/nginx/modules/ngx_rtmp_module.so");

    private RtmpPeers() {}

    static void requireFfmpeg() {
        ExternalPeers.requireAt(FFMPEG, "ffmpeg");
        ExternalPeers.requireAt(FFPROBE, "ffmpeg");
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
        ExternalPeers.requireAt(GST_LAUNCH, "gstreamer1.0-tools");
        ExternalPeers.require(
                gstPluginsPresent(),
                "GStreamer's rtmp2sink, x264enc, avenc_aac and flvmux",
                "apt-get install gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad"
                        + " gstreamer1.0-plugins-ugly gstreamer1.0-libav");
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
        ExternalPeers.requireAt(NGINX, "nginx");
        ExternalPeers.require(
                Files.isRegularFile(NGINX_RTMP_MODULE), "nginx's RTMP module", "apt-get install libnginx-mod-rtmp");
    }
}
