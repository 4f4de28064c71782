package io.tern.netty.rtmp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import io.tern.netty.NettyTransports;
import io.tern.rtmp.CloseReason;
import io.tern.rtmp.handshake.HandshakeScheme;
import io.tern.rtmp.session.RtmpSettings;
import io.tern.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tern's publishing client pushes to Debian's nginx with libnginx-mod-rtmp (started here with its
 * own configuration and pid file on a free port), and ffprobe and ffmpeg read the stream back from
 * nginx without one error line.
 */
class NginxPushTest {
    @TempDir
    Path dir;

    @Test
    void nginxRtmpTakesOurPublishAndPlaysItBack() throws Exception {
        RtmpPeers.requireFfmpeg();
        RtmpPeers.requireNginxRtmp();
        Path flv = dir.resolve("source.flv");
        Processes.Result encoded = Processes.run(
                RealPublishersTest.ffmpegPublish(flv.toString(), 5), dir, "encode", Duration.ofSeconds(90));
        assertThat(encoded.exitCode()).as(encoded.stderr()).isZero();
        FlvSource source = FlvSource.read(flv);
        assertThat(source.videoFrames()).isEqualTo(150);

        int port = freePort();
        Process nginx = startNginx(port);
        EventLoopGroup group = NettyTransports.newGroup(1, "rtmp-push");
        try {
            RtmpPushClient client = RtmpPushClient.connect(
                    group,
                    URI.create("rtmp://127.0.0.1:" + port + "/live/push"),
                    RtmpSettings.defaults(),
                    HandshakeScheme.DIGEST_OFFSET_8);
            client.published().get(10, TimeUnit.SECONDS);
            Process ffprobe = Processes.start(
                    List.of(
                            RtmpPeers.FFPROBE.toString(),
                            "-v",
                            "error",
                            "-show_entries",
                            "stream=codec_name,profile,width,height,sample_rate",
                            "-of",
                            "compact",
                            "rtmp://127.0.0.1:" + port + "/live/push"),
                    dir,
                    "ffprobe");
            Process decode = Processes.start(
                    List.of(
                            RtmpPeers.FFMPEG.toString(),
                            "-v",
                            "error",
                            "-i",
                            "rtmp://127.0.0.1:" + port + "/live/push",
                            "-t",
                            "2",
                            "-f",
                            "null",
                            "-"),
                    dir,
                    "decode");

            source.pushLive(client);
            Processes.Result probed = Processes.finish(ffprobe, dir, "ffprobe", Duration.ofSeconds(30));
            Processes.Result decoded = Processes.finish(decode, dir, "decode", Duration.ofSeconds(30));
            client.unpublish();
            var closed = client.closed().get(10, TimeUnit.SECONDS);

            assertThat(probed.exitCode()).isZero();
            assertThat(probed.stderr()).as("ffprobe prints no error").isEmpty();
            assertThat(probed.stdout())
                    .contains("stream|codec_name=h264|profile=High|width=1280|height=720")
                    .contains("codec_name=aac|profile=LC")
                    .contains("sample_rate=48000");
            assertThat(decoded.exitCode()).isZero();
            assertThat(decoded.stderr())
                    .as("ffmpeg decodes 2 s without an error")
                    .isEmpty();
            assertThat(closed.reason()).isEqualTo(CloseReason.LOCAL_CLOSE);
            assertThat(client.droppedMessages()).isZero();
            String log = Files.readString(dir.resolve("error.log"));
            assertThat(log).contains("publish: name='push'").contains("flashver='FMLE/3.0 (compatible; Tern)'");
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            nginx.destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly();
            }
        }
    }

    private Process startNginx(int port) throws Exception {
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "load_module " + RtmpPeers.NGINX_RTMP_MODULE + ";",
                        "daemon off;",
                        "master_process off;",
                        "worker_processes 1;",
                        "pid " + dir.resolve("nginx.pid") + ";",
                        "error_log " + dir.resolve("error.log") + " info;",
                        "events { worker_connections 64; }",
                        "rtmp {",
                        "  server {",
                        "    listen 127.0.0.1:" + port + ";",
                        "    application live { live on; wait_key on; wait_video on; }",
                        "  }",
                        "}",
                        ""));
        Process nginx = Processes.start(
                List.of(
                        RtmpPeers.NGINX.toString(),
                        "-p",
                        dir.toString(),
                        "-e",
                        dir.resolve("error.log").toString(),
                        "-c",
                        conf.toString()),
                dir,
                "nginx");
        // Bounded wait for the port to accept, or for nginx to die and say why.
        try {
            Await.await(
                    "nginx accepting on " + port,
                    Duration.ofSeconds(10),
                    Duration.ofMillis(50),
                    () -> !nginx.isAlive() || accepts(port));
            if (nginx.isAlive()) {
                return nginx;
            }
        } catch (AssertionError timedOut) {
            // reported below, with nginx's own words
        }
        nginx.destroyForcibly();
        throw new AssertionError("nginx did not start: " + Files.readString(dir.resolve("error.log")));
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
