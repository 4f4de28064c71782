package io.tern.bench.origin.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tern.bench.harness.server.FreePorts;
import io.tern.bench.harness.server.ServerProcess;
import io.tern.bench.origin.load.OriginLoadConfig;
import io.tern.bench.origin.load.OriginLoadGenerator;
import io.tern.bench.origin.report.Fields;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.ViewerMode;
import io.tern.testkit.ExternalPeers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classic path against a real origin: ffmpeg publishes the benchmark's stream to Debian's
 * nginx with libnginx-mod-rtmp (its own config and pid, free ports, fragments on /dev/shm), and a
 * handful of viewers watch it for a few seconds. With CI=true a missing nginx or ffmpeg fails.
 */
class NginxOriginIntegrationTest {
    private static final Path NGINX = Path.of("/usr/sbin/nginx");
    private static final Path FFMPEG = Path.of("/usr/bin/ffmpeg");

    @TempDir
    Path dir;

    @Test
    void classicViewersWatchNginxRtmp() throws Exception {
        ExternalPeers.requireAt(NGINX, "nginx");
        ExternalPeers.require(
                Files.isRegularFile(NginxRtmp.MODULE), "nginx's RTMP module", "apt-get install libnginx-mod-rtmp");
        ExternalPeers.requireAt(FFMPEG, "ffmpeg");
        Path shm = Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm") : dir;
        NginxRtmp nginx = new NginxRtmp(NGINX.toString(), "1", shm, 24);
        Origin.Ports ports = new Origin.Ports(FreePorts.between(39000, 39499), FreePorts.between(39500, 39999), dir);
        Publisher publisher = new Publisher(FFMPEG.toString());
        RunRecord r;
        try (ServerProcess server = nginx.start(ports, 20_000);
                ServerProcess pub = publisher.start(nginx.publishUrl(ports), 40, dir)) {
            StreamProbe.Found found = new StreamProbe()
                    .await(ports.httpPort(), nginx.entryPath(), 3, 30_000, () -> server.alive() && pub.alive());
            assertThat(found.playlist().targetDurationUs()).isEqualTo(1_000_000);
            r = new OriginLoadGenerator(new OriginLoadConfig(
                            ports.httpPort(),
                            nginx.entryPath(),
                            ViewerMode.CLASSIC,
                            5,
                            1,
                            1,
                            4,
                            true,
                            1,
                            10_000,
                            1 << 20,
                            server.pid(),
                            pub.pid()))
                    .run();
            assertThat(server.alive()).isTrue();
        } finally {
            nginx.cleanUp(ports);
        }
        assertThat(r.number(Fields.ERRORS)).as(r.string(Fields.ERROR_DETAIL)).isZero();
        assertThat(r.number(Fields.ofKind("playlist", "requests"))).isBetween(25.0, 50.0); // 5 viewers, 2 a second, 4 s
        // Each new segment once per viewer: 4 s of media at the measured edge advance (a publisher
        // that fell behind on a busy machine catches up in a burst), plus one at each end of the window.
        assertThat(r.number(Fields.ofKind("segment", "requests")))
                .isBetween(10.0, 5 * (4 * r.number(Fields.EDGE_ADVANCE) + 2));
        // 2.5 Mbit/s of video and 128 kbit/s of audio in 1 s MPEG-TS fragments.
        assertThat(r.number(Fields.ofKind("segment", "bytes")) / r.number(Fields.ofKind("segment", "requests")))
                .isBetween(200_000.0, 600_000.0);
        assertThat(r.number(Fields.SEGMENT_DELAY_P99_MS)).isBetween(0.0, 2000.0);
        assertThat(r.number(Fields.EDGE_ADVANCE)).isCloseTo(1.0, within(0.3));
        assertThat(r.number(Fields.RENDITIONS)).isEqualTo(1);
        assertThat(r.number(Fields.SERVER_CPU_SECONDS)).isPositive();
        assertThat(r.number(Fields.SERVER_RSS_PEAK_BYTES)).isGreaterThan(1 << 20);
        assertThat(r.number("server_processes"))
                .as("master, worker (and cache manager)")
                .isBetween(2.0, 3.0);
        assertThat(r.number(Fields.PUBLISHER_CPU_PERCENT)).isPositive();
        assertThat(r.number(Fields.GENERATOR_CPU_US_PER_REQUEST)).isPositive();
        assertThat(Files.list(shm)
                        .filter(p -> p.getFileName().toString().startsWith("tern-originbench-")
                                && p.getFileName()
                                        .toString()
                                        .endsWith(dir.getFileName().toString())))
                .as("the fragments are removed")
                .isEmpty();
    }
}
