package io.tern.bench.origin.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.bench.harness.sample.MachineCpu;
import io.tern.bench.harness.sample.ProcessTree;
import io.tern.bench.harness.sample.ResourceSampler;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.measure.RequestStats;
import io.tern.bench.origin.report.Fields;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerMode;
import org.junit.jupiter.api.Test;

class LoadReportTest {
    static final long S = 1_000_000_000L;

    @Test
    void saysWhenTheGeneratorSetThePace() {
        assertThat(LoadReport.bottleneck(50, 1, 2, 3)).isEmpty();
        assertThat(LoadReport.bottleneck(95, 1, 2, 3)).isEqualTo("generator at 95% CPU with 1 loop thread(s)");
        assertThat(LoadReport.bottleneck(95, 2, 2, 3))
                .as("two threads can use 200%")
                .isEmpty();
        assertThat(LoadReport.bottleneck(185, 4, 2, 3))
                .as("no more than the CPUs")
                .isNotEmpty();
        assertThat(LoadReport.bottleneck(10, 1, 2, 80)).isEqualTo("viewer timers fired 80 ms late (p99)");
        assertThat(LoadReport.bottleneck(99, 1, 2, 80)).contains("; ");
    }

    @Test
    void perRequestCpuAndEveryFieldTheSummaryReads() throws Exception {
        MediaTimeline timeline = new MediaTimeline();
        RequestStats s = new RequestStats(timeline, 0, 10 * S);
        for (int i = 0; i < 1000; i++) {
            s.completed(RequestKind.PLAYLIST, 1_000_000, 500, S);
        }
        s.failed(RequestKind.SEGMENT, Failure.HTTP_5XX, S);
        OriginLoadConfig c =
                new OriginLoadConfig(8080, "/hls/s.m3u8", ViewerMode.CLASSIC, 10, 1, 1, 10, true, 1, 1000, 65536, 0, 0);
        // 10 s: the server used 0.5 s of CPU (0.3 s of it in its JIT compiler threads, 0.02 s in its
        // VM thread), the generator 0.2 s, the publisher 3 s.
        OriginLoadGenerator.Snapshot a =
                new OriginLoadGenerator.Snapshot(0, 100, 10, 2, 1000, 500, 0, 0, new MachineCpu(0, 0));
        OriginLoadGenerator.Snapshot b =
                new OriginLoadGenerator.Snapshot(10 * S, 150, 40, 4, 1020, 515, 64_000, 300, new MachineCpu(500, 2000));
        ResourceSampler sampler = new ResourceSampler(new ProcessTree(0), 0, 10 * S).start();
        sampler.close();
        RunRecord r = LoadReport.build(
                new LoadReport.Inputs(c, s, timeline, 0, 10 * S, a, b, sampler, -1, 0, 20, 3, 997, 0, null));
        assertThat(r.number(Fields.REQUESTS)).isEqualTo(1000);
        assertThat(r.number(Fields.ERRORS)).isEqualTo(1);
        assertThat(r.string(Fields.ERROR_DETAIL)).isEqualTo("segment http_5xx 1");
        assertThat(r.number(Fields.REQUESTS_PER_SECOND)).isEqualTo(100);
        assertThat(r.number(Fields.SERVER_CPU_US_PER_REQUEST)).isEqualTo(500);
        assertThat(r.number(Fields.SERVER_CPU_US_PER_VIEWER_SECOND))
                .as("0.5 s / 10 viewers / 10 s")
                .isEqualTo(5000);
        assertThat(r.number(Fields.SERVER_JIT_CPU_SECONDS)).isEqualTo(0.3);
        assertThat(r.number(Fields.SERVER_VM_THREAD_CPU_SECONDS)).isEqualTo(0.02);
        assertThat(r.number(Fields.SERVER_CPU_US_PER_REQUEST_WITHOUT_JIT))
                .as("(0.5 - 0.3) s / 1000 requests")
                .isEqualTo(200);
        assertThat(r.number(Fields.GENERATOR_CPU_US_PER_REQUEST)).isEqualTo(200);
        assertThat(r.number("generator_loop_cpu_us_per_request")).isEqualTo(150);
        assertThat(r.number("generator_loop_bytes_allocated_per_request")).isEqualTo(64);
        assertThat(r.flag(Fields.GENERATOR_COSTLIER)).isFalse();
        assertThat(r.number(Fields.PUBLISHER_CPU_PERCENT)).isEqualTo(30);
        // Machine: 25% of 2 CPUs for 10 s = 5 CPU-s; minus 0.5 + 0.2 + 3 leaves 1.3 s: 13% of a CPU.
        assertThat(r.number(Fields.OTHER_CPU_PERCENT)).isEqualTo(13);
        assertThat(r.number(Fields.ofKind("playlist", "p50_ms"))).isEqualTo(1.0);
        assertThat(RunRecord.parse(r.toJson()).get(Fields.PART_DELAY_P99_MS))
                .as("nothing recorded: null in JSON")
                .isNull();
        for (String f : new String[] {
            Fields.MODE,
            Fields.VIEWERS,
            Fields.RENDITIONS,
            Fields.MEASURED_SECONDS,
            Fields.EDGE_ADVANCE,
            Fields.SERVER_CPU_PERCENT,
            Fields.SERVER_PEAK_CPU_PERCENT,
            Fields.SERVER_RSS_PEAK_BYTES,
            Fields.SERVER_RSS_MEAN_BYTES,
            Fields.SERVER_PSS_BYTES,
            Fields.GENERATOR_CPU_PERCENT,
            Fields.GENERATOR_BOTTLENECK,
            Fields.RELEASES,
            Fields.RELEASE_LATENESS_P99_MS,
            Fields.SEGMENT_DELAY_P99_MS,
            Fields.PART_TARGET_MS
        }) {
            assertThat(RunRecord.parse(r.toJson()).fields()).as(f).containsKey(f);
        }
    }
}
