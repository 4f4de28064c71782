package io.tern.bench.origin.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.harness.matrix.QuietMachine;
import io.tern.bench.origin.viewer.ViewerMode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunnerPiecesTest {
    @Test
    void serversAlternateWithinEachRepeatAndLlRunsOnlyAgainstTern() {
        List<RunSpec> plan =
                Plan.runs(List.of("tern", "nginx"), List.of(ViewerMode.CLASSIC, ViewerMode.LL), List.of(50, 750), 2);
        assertThat(plan)
                .extracting(RunSpec::label)
                .containsExactly(
                        "tern classic v=50 rep 1",
                        "nginx classic v=50 rep 1",
                        "tern ll v=50 rep 1",
                        "tern classic v=50 rep 2",
                        "nginx classic v=50 rep 2",
                        "tern ll v=50 rep 2",
                        "tern classic v=750 rep 1",
                        "nginx classic v=750 rep 1",
                        "tern ll v=750 rep 1",
                        "tern classic v=750 rep 2",
                        "nginx classic v=750 rep 2",
                        "tern ll v=750 rep 2");
        assertThat(Plan.runs(List.of("nginx"), List.of(ViewerMode.LL), List.of(50), 1))
                .isEmpty();
    }

    @Test
    void quietMeansLowLoadAndIdleCpus() {
        QuietMachine.Thresholds t = new QuietMachine.Thresholds(1.5, 25, 1000, 100);
        assertThat(QuietMachine.quiet(0.4, 5, t)).isTrue();
        assertThat(QuietMachine.quiet(1.6, 5, t)).isFalse();
        assertThat(QuietMachine.quiet(0.4, 30, t)).isFalse();
        assertThat(QuietMachine.load1("0.51 0.86 2.01 1/88 10775\n")).isEqualTo(0.51);
        assertThat(new QuietMachine.Wait(2.5, 80, 20_000, true).describe())
                .isEqualTo("load 2.50, 80% busy (not quiet: waited 20 s, ran anyway)");
    }

    @Test
    void nginxServesClassicHlsFromTmpfsWithSendfileUnderItsOwnPidAndPorts() {
        Origin.Ports ports = new Origin.Ports(37001, 38001, Path.of("/tmp/run-1"));
        String conf = NginxRtmp.config(ports, Path.of("/dev/shm/x/hls"), "auto", 24);
        assertThat(conf)
                .contains("load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;")
                .contains("daemon off;")
                .contains("pid /tmp/run-1/nginx.pid;")
                .contains("worker_processes auto;")
                .contains("listen 127.0.0.1:37001;")
                .contains("listen 127.0.0.1:38001;")
                .contains("application live {")
                .contains("hls_path /dev/shm/x/hls;")
                .contains("hls_fragment 1s;")
                .contains("hls_playlist_length 24s;")
                .contains("sendfile on;")
                .contains("alias /dev/shm/x/hls/;")
                .doesNotContain("listen 80")
                .doesNotContain("/var/");
    }

    @Test
    void theSameStreamForEveryOrigin() {
        List<String> c = Publisher.command("/usr/bin/ffmpeg", "rtmp://127.0.0.1:1/live/stream", 90);
        String line = String.join(" ", c);
        // The command line every recorded run used, argument for argument (bench/origin/README.md).
        assertThat(line)
                .isEqualTo("/usr/bin/ffmpeg -hide_banner -nostdin -loglevel error"
                        + " -re -f lavfi -i testsrc2=size=1280x720:rate=30"
                        + " -re -f lavfi -i sine=frequency=440:sample_rate=48000"
                        + " -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p"
                        + " -g 30 -keyint_min 30 -sc_threshold 0 -b:v 2500k -maxrate 2500k -bufsize 2500k"
                        + " -c:a aac -b:a 128k -ar 48000 -t 90 -f flv rtmp://127.0.0.1:1/live/stream");
        assertThat(c.stream().filter("-re"::equals)).hasSize(2);
        assertThat(line)
                .contains("testsrc2=size=1280x720:rate=30")
                .contains("sine=")
                .contains("-c:v libx264 -preset veryfast -tune zerolatency")
                .contains("-g 30 -keyint_min 30 -sc_threshold 0")
                .contains("-b:v 2500k")
                .contains("-c:a aac -b:a 128k")
                .contains("-t 90")
                .endsWith("-f flv rtmp://127.0.0.1:1/live/stream");
    }

    @Test
    void ternRunsWithOneSecondSegmentsAndTwoHundredMillisecondParts() {
        TernOrigin t =
                new TernOrigin(List.of("./tern", "origin"), Path.of("."), "test", 1000, 200, List.of("--x"), null);
        Origin.Ports ports = new Origin.Ports(37002, 38002, Path.of("/tmp/run-2"));
        assertThat(String.join(" ", t.command(ports)))
                .isEqualTo("./tern origin --listen 127.0.0.1 --rtmp-port 37002 --http-port 38002 "
                        + "--segment-target-ms 1000 --part-target-ms 200 --no-publish-auth "
                        + "--max-http-connections 20000 --max-http-connections-per-ip 20000 "
                        + "--max-held-requests 20000 --max-held-requests-per-ip 20000 --x");
        assertThat(t.entryPath()).isEqualTo("/live/stream/index.m3u8");
        assertThat(t.publishUrl(ports)).isEqualTo("rtmp://127.0.0.1:37002/live/stream");
        assertThat(t.environment(ports)).isEmpty();
        TernOrigin profiled = new TernOrigin(
                List.of("./tern", "origin"), Path.of("."), "test", 1000, 200, List.of(), Path.of("/ap/lib.so"));
        assertThat(profiled.environment(ports))
                .containsEntry(
                        "JAVA_TOOL_OPTIONS",
                        "-agentpath:/ap/lib.so=start,event=cpu,interval=1ms,file=/tmp/run-2/tern-cpu.html");
    }
}
