package io.tern.bench.origin.runner;

import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.runner.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The anchor: Debian's nginx with libnginx-mod-rtmp, writing classic HLS (MPEG-TS, 1 s
 * fragments) to a directory on tmpfs and serving it with {@code sendfile}. Started with its own
 * configuration file, prefix and pid file; never the system service.
 */
final class NginxRtmp extends Origin {
    static final Path MODULE = Path.of("/usr/lib/nginx/modules/ngx_rtmp_module.so");

    private final String nginx;
    private final String workers;
    private final Path hlsRoot;
    private final int playlistSeconds;
    private String version;

    /**
     * @param workers {@code worker_processes}: a number or {@code auto} (Debian's default)
     * @param hlsRoot a tmpfs directory under which each run gets its own HLS directory
     * @param playlistSeconds {@code hls_playlist_length}, matched to Tern's playlist window
     */
    NginxRtmp(String nginx, String workers, Path hlsRoot, int playlistSeconds) {
        this.nginx = nginx;
        this.workers = workers;
        this.hlsRoot = hlsRoot;
        this.playlistSeconds = playlistSeconds;
    }

    @Override
    String name() {
        return "nginx";
    }

    @Override
    synchronized String version() {
        if (version == null) {
            version = Commands.firstLine(List.of(nginx, "-v")).replace("nginx version: ", "") + " + libnginx-mod-rtmp, "
                    + workers + " worker(s)";
        }
        return version;
    }

    @Override
    String entryPath() {
        return "/hls/" + STREAM + ".m3u8";
    }

    Path hlsDir(Ports ports) {
        return hlsRoot.resolve("tern-originbench-" + ProcessHandle.current().pid() + "-"
                + ports.runDir().getFileName());
    }

    @Override
    List<String> command(Ports ports) throws IOException {
        Path conf = ports.runDir().resolve("nginx.conf");
        Path hls = hlsDir(ports);
        Files.createDirectories(hls);
        // The workers run as nobody when the master is root; they write the fragments.
        Files.setPosixFilePermissions(hls, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.createDirectories(ports.runDir().resolve("temp"));
        Files.writeString(conf, config(ports, hls, workers, playlistSeconds));
        return List.of(
                nginx,
                "-p",
                ports.runDir().toString(),
                "-e",
                ports.runDir().resolve("error.log").toString(),
                "-c",
                conf.toString());
    }

    /** The whole configuration of one run. */
    static String config(Ports ports, Path hls, String workers, int playlistSeconds) {
        Path dir = ports.runDir();
        Path temp = dir.resolve("temp");
        return String.join(
                "\n",
                "# Written by bench/origin/run for one run; see bench/origin/README.md.",
                "load_module " + MODULE + ";",
                "daemon off;",
                "master_process on;",
                "worker_processes " + workers + ";",
                "worker_rlimit_nofile 65536;",
                "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " warn;",
                "events { worker_connections 16384; multi_accept on; }",
                "rtmp {",
                "  server {",
                "    listen 127.0.0.1:" + ports.rtmpPort() + ";",
                "    chunk_size 4096;",
                "    application " + APP + " {",
                "      live on;",
                "      hls on;",
                "      hls_path " + hls + ";",
                "      hls_fragment 1s;",
                "      hls_playlist_length " + playlistSeconds + "s;",
                "      hls_cleanup on;",
                "    }",
                "  }",
                "}",
                "http {",
                "  access_log off;",
                "  sendfile on;",
                "  tcp_nopush on;",
                "  tcp_nodelay on;",
                "  keepalive_timeout 65;",
                "  keepalive_requests 1000000;",
                "  client_body_temp_path " + temp + ";",
                "  proxy_temp_path " + temp + ";",
                "  fastcgi_temp_path " + temp + ";",
                "  uwsgi_temp_path " + temp + ";",
                "  scgi_temp_path " + temp + ";",
                "  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }",
                "  server {",
                "    listen 127.0.0.1:" + ports.httpPort() + ";",
                "    location /hls/ {",
                "      alias " + hls + "/;",
                "      add_header Cache-Control no-cache;",
                "    }",
                "  }",
                "}",
                "");
    }

    @Override
    ServerProcess start(Ports ports, long readyTimeoutMs) throws IOException, InterruptedException {
        return ServerProcess.start(
                command(ports),
                ports.runDir(),
                ports.runDir().resolve("stdout.log"),
                () -> ServerProcess.accepts(ports.httpPort()),
                "HTTP port " + ports.httpPort(),
                readyTimeoutMs);
    }

    @Override
    void cleanUp(Ports ports) {
        Path hls = hlsDir(ports);
        if (!Files.exists(hls)) {
            return;
        }
        try (Stream<Path> s = Files.walk(hls)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("bench/origin/run: could not remove " + hls + ": " + e);
        }
    }
}
