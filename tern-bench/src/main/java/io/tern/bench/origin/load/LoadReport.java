package io.tern.bench.origin.load;

import io.tern.bench.harness.sample.ProcStats;
import io.tern.bench.harness.sample.ResourceSampler;
import io.tern.bench.origin.measure.MediaTimeline;
import io.tern.bench.origin.measure.RequestStats;
import io.tern.bench.origin.report.Fields;
import io.tern.bench.origin.report.RunRecord;
import io.tern.bench.origin.viewer.Failure;
import io.tern.bench.origin.viewer.RequestKind;
import io.tern.bench.origin.viewer.ViewerEvent;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Turns one run's counters into its {@link RunRecord}: every field of the JSONL line the generator owns. */
final class LoadReport {
    /** The generator is called saturated at this share of the CPUs it can use. */
    static final double SATURATED_SHARE = 0.9;

    /** Viewer timers firing later than this (p99) mean the generator cannot keep the players' schedule. */
    static final double TIMER_LAG_LIMIT_MS = 50;

    /** Every CPU this busy: generator and server queued for CPU behind each other and other processes. */
    static final double MACHINE_SATURATED_SHARE = 0.95;

    record Inputs(
            OriginLoadConfig config,
            RequestStats stats,
            MediaTimeline timeline,
            long fromNs,
            long toNs,
            OriginLoadGenerator.Snapshot a,
            OriginLoadGenerator.Snapshot b,
            ResourceSampler sampler,
            long pssBytes,
            int serverProcesses,
            long connects,
            long playlistParses,
            long playlistCacheHits,
            long malformedPlaylists,
            String firstMalformed) {}

    private LoadReport() {}

    static RunRecord build(Inputs in) {
        OriginLoadConfig c = in.config();
        RequestStats s = in.stats();
        double seconds = (in.b().nowNs() - in.a().nowNs()) / 1e9;
        long requests = s.totalCompleted();
        long errors = s.totalErrors();
        double hz = ProcStats.CLOCK_TICKS_PER_SECOND;
        double serverCpu = (in.b().serverTicks() - in.a().serverTicks()) / hz;
        double serverJitCpu = (in.b().serverJitTicks() - in.a().serverJitTicks()) / hz;
        double serverVmThreadCpu = (in.b().serverVmThreadTicks() - in.a().serverVmThreadTicks()) / hz;
        double generatorCpu = (in.b().generatorTicks() - in.a().generatorTicks()) / hz;
        double loopCpu = (in.b().loopTicks() - in.a().loopTicks()) / hz;
        double publisherCpu = (in.b().publisherTicks() - in.a().publisherTicks()) / hz;
        double machineBusy = in.b().machine().busyFractionSince(in.a().machine());
        int cpus = Runtime.getRuntime().availableProcessors();
        double machineBusyCpuSeconds = machineBusy * cpus * seconds;
        double other = Math.max(0, machineBusyCpuSeconds - serverCpu - generatorCpu - publisherCpu);
        double serverUsPerRequest = requests == 0 ? Double.NaN : serverCpu * 1e6 / requests;
        double generatorUsPerRequest = requests == 0 ? Double.NaN : generatorCpu * 1e6 / requests;
        double generatorPercent = 100 * generatorCpu / seconds;
        double timerLagP99 = ms(s.timerLagUs(), 99);

        RunRecord r = new RunRecord();
        r.put(Fields.MODE, c.mode().label());
        r.put(Fields.VIEWERS, c.viewers());
        r.put(Fields.RENDITIONS, in.timeline().renditions());
        r.put("target_duration_ms", in.timeline().targetDurationUs() / 1000.0);
        r.put(Fields.PART_TARGET_MS, in.timeline().partTargetUs() / 1000.0);
        r.put("ramp_seconds", c.rampSeconds());
        r.put("settle_seconds", c.settleSeconds());
        r.put(Fields.MEASURED_SECONDS, round(seconds, 3));
        r.put(Fields.REQUESTS, requests);
        r.put(Fields.ERRORS, errors);
        r.put(Fields.REQUESTS_PER_SECOND, round(requests / seconds, 1));
        long bytes = 0;
        for (RequestKind k : RequestKind.values()) {
            bytes += s.bodyBytes(k);
        }
        r.put("media_mbit_per_second", round(bytes * 8 / seconds / 1e6, 1));
        for (RequestKind k : RequestKind.values()) {
            String n = k.label();
            r.put(Fields.ofKind(n, "requests"), s.completed(k));
            r.put(Fields.ofKind(n, "errors"), s.errors(k));
            r.put(Fields.ofKind(n, "bytes"), s.bodyBytes(k));
            r.put(Fields.ofKind(n, "p50_ms"), ms(s.latencyUs(k), 50));
            r.put(Fields.ofKind(n, "p99_ms"), ms(s.latencyUs(k), 99));
        }
        r.put(Fields.ERROR_DETAIL, errorDetail(s));
        r.put("part_deliveries", s.partDelayUs().getTotalCount());
        r.put(Fields.PART_DELAY_P50_MS, ms(s.partDelayUs(), 50));
        r.put(Fields.PART_DELAY_P99_MS, ms(s.partDelayUs(), 99));
        r.put("part_delay_max_ms", ms(s.partDelayUs(), 100));
        r.put(Fields.VARIANT_PART_DELAY_P50_MS, ms(s.variantPartDelayUs(), 50));
        r.put(Fields.VARIANT_PART_DELAY_P99_MS, ms(s.variantPartDelayUs(), 99));
        r.put("segment_deliveries", s.segmentDelayUs().getTotalCount());
        r.put(Fields.SEGMENT_DELAY_P50_MS, ms(s.segmentDelayUs(), 50));
        r.put(Fields.SEGMENT_DELAY_P99_MS, ms(s.segmentDelayUs(), 99));
        r.put("segment_delay_max_ms", ms(s.segmentDelayUs(), 100));
        r.put("delivered_before_listed", s.deliveredBeforeListed());
        r.put(Fields.RELEASES, s.releaseLatenessUs().getTotalCount());
        r.put(Fields.RELEASE_LATENESS_P50_MS, ms(s.releaseLatenessUs(), 50));
        r.put(Fields.RELEASE_LATENESS_P99_MS, ms(s.releaseLatenessUs(), 99));
        r.put("release_lateness_max_ms", ms(s.releaseLatenessUs(), 100));
        r.put("released_without_target", s.releasedWithoutTarget());
        r.put(Fields.EDGE_ADVANCE, round(in.timeline().edgeAdvance(in.fromNs(), in.toNs()), 4));
        r.put("edge_segments", in.timeline().edgeSegments(in.fromNs(), in.toNs()));
        r.put("rejoins", s.events(ViewerEvent.REJOIN));
        r.put("segment_fallbacks", s.events(ViewerEvent.SEGMENT_FALLBACK));
        r.put("full_reloads_needed", s.events(ViewerEvent.FULL_RELOAD_NEEDED));
        r.put("connects", in.connects());
        r.put("playlist_parses", in.playlistParses());
        r.put("playlist_cache_hits", in.playlistCacheHits());
        r.put("malformed_playlists", in.malformedPlaylists());
        if (in.firstMalformed() != null) {
            r.put("first_malformed", in.firstMalformed());
        }
        r.put("server_pid", c.serverPid());
        r.put("server_processes", in.serverProcesses());
        r.put(Fields.SERVER_CPU_SECONDS, round(serverCpu, 3));
        r.put(Fields.SERVER_CPU_PERCENT, round(100 * serverCpu / seconds, 1));
        r.put(Fields.SERVER_PEAK_CPU_PERCENT, round(in.sampler().peakCpuPercent(), 1));
        r.put(Fields.SERVER_CPU_US_PER_REQUEST, round(serverUsPerRequest, 2));
        r.put(Fields.SERVER_CPU_US_PER_VIEWER_SECOND, round(serverCpu * 1e6 / c.viewers() / seconds, 2));
        r.put(Fields.SERVER_JIT_CPU_SECONDS, round(serverJitCpu, 3));
        r.put(Fields.SERVER_VM_THREAD_CPU_SECONDS, round(serverVmThreadCpu, 3));
        r.put(
                Fields.SERVER_CPU_US_PER_REQUEST_WITHOUT_JIT,
                round(requests == 0 ? Double.NaN : (serverCpu - serverJitCpu) * 1e6 / requests, 2));
        r.put(Fields.SERVER_RSS_PEAK_BYTES, in.sampler().peakRssBytes());
        r.put(Fields.SERVER_RSS_MEAN_BYTES, in.sampler().meanRssBytes());
        r.put(Fields.SERVER_PSS_BYTES, in.pssBytes());
        r.put("generator_loop_threads", c.loopThreads());
        r.put("generator_cpu_seconds", round(generatorCpu, 3));
        r.put(Fields.GENERATOR_CPU_PERCENT, round(generatorPercent, 1));
        r.put(Fields.GENERATOR_CPU_US_PER_REQUEST, round(generatorUsPerRequest, 2));
        r.put("generator_loop_cpu_percent", round(100 * loopCpu / seconds, 1));
        r.put("generator_loop_cpu_us_per_request", round(requests == 0 ? Double.NaN : loopCpu * 1e6 / requests, 2));
        long allocated = in.b().loopAllocatedBytes() - in.a().loopAllocatedBytes();
        r.put(
                "generator_loop_bytes_allocated_per_request",
                round(
                        requests == 0 || in.a().loopAllocatedBytes() < 0 ? Double.NaN : allocated / (double) requests,
                        1));
        r.put("generator_timer_lag_p99_ms", timerLagP99);
        r.put(Fields.GENERATOR_COSTLIER, generatorUsPerRequest > serverUsPerRequest);
        r.put(Fields.GENERATOR_BOTTLENECK, bottleneck(generatorPercent, c.loopThreads(), cpus, timerLagP99));
        r.put(Fields.PUBLISHER_CPU_PERCENT, round(100 * publisherCpu / seconds, 1));
        r.put("machine_busy_percent", round(100 * machineBusy, 1));
        r.put(Fields.MACHINE_SATURATED, machineBusy >= MACHINE_SATURATED_SHARE);
        r.put("machine_cpus", cpus);
        r.put(Fields.OTHER_CPU_PERCENT, round(100 * other / seconds, 1));
        return r;
    }

    /**
     * Why the generator, not the server, may have set the pace: it used nearly all the CPU its
     * threads can, or it fired viewer timers late. Empty when neither.
     */
    static String bottleneck(double generatorPercent, int loopThreads, int cpus, double timerLagP99Ms) {
        StringBuilder sb = new StringBuilder();
        double limit = 100.0 * Math.min(loopThreads, cpus);
        if (generatorPercent >= SATURATED_SHARE * limit) {
            sb.append(String.format(
                    Locale.ROOT, "generator at %.0f%% CPU with %d loop thread(s)", generatorPercent, loopThreads));
        }
        if (timerLagP99Ms > TIMER_LAG_LIMIT_MS) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append(String.format(Locale.ROOT, "viewer timers fired %.0f ms late (p99)", timerLagP99Ms));
        }
        return sb.toString();
    }

    static String errorDetail(RequestStats s) {
        StringBuilder sb = new StringBuilder();
        for (RequestKind k : RequestKind.values()) {
            for (Failure f : Failure.values()) {
                long n = s.errors(k, f);
                if (n > 0) {
                    if (!sb.isEmpty()) {
                        sb.append(", ");
                    }
                    sb.append(k.label())
                            .append(' ')
                            .append(f.label())
                            .append(' ')
                            .append(n);
                }
            }
        }
        return sb.toString();
    }

    /** A percentile in milliseconds (three decimals), NaN (null in JSON) when nothing was recorded. */
    static double ms(Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            return Double.NaN;
        }
        long us = percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
        return round(us / 1000.0, 3);
    }

    static double round(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.NaN;
        }
        double f = Math.pow(10, decimals);
        return Math.round(v * f) / f;
    }
}
