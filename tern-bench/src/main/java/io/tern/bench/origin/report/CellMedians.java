package io.tern.bench.origin.report;

import io.tern.bench.runner.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One cell (server, mode, viewer count): medians over its runs, sums of errors, and how many
 * runs the generator limited or other processes disturbed.
 */
public record CellMedians(
        String server,
        String mode,
        int viewers,
        int runs,
        double requestsPerSecond,
        long requests,
        long errors,
        double serverUsPerRequest,
        double serverUsPerRequestWithoutJit,
        double serverUsPerViewerSecond,
        double generatorUsPerRequest,
        double serverCpuPercent,
        double serverIdleCpuPercent,
        double peakRssMiB,
        double meanRssMiB,
        double pssMiB,
        double partDelayP99Ms,
        double variantPartDelayP99Ms,
        double segmentDelayP99Ms,
        double releaseP99Ms,
        double edgeAdvance,
        double partTargetMs,
        int generatorLimitedRuns,
        int generatorCostlierRuns,
        int disturbedRuns,
        String version) {
    static final double MIB = 1024.0 * 1024.0;

    static CellMedians of(List<RunRecord> runs) {
        RunRecord first = runs.get(0);
        long requests = 0;
        long errors = 0;
        int limited = 0;
        int costlier = 0;
        int disturbed = 0;
        for (RunRecord r : runs) {
            requests += (long) r.number(Fields.REQUESTS);
            errors += (long) r.number(Fields.ERRORS);
            limited += r.string(Fields.GENERATOR_BOTTLENECK).isEmpty() ? 0 : 1;
            costlier += r.flag(Fields.GENERATOR_COSTLIER) ? 1 : 0;
            disturbed += r.flag(Fields.DISTURBED) ? 1 : 0;
        }
        return new CellMedians(
                first.string(Fields.SERVER),
                first.string(Fields.MODE),
                (int) first.number(Fields.VIEWERS),
                runs.size(),
                median(runs, r -> r.number(Fields.REQUESTS_PER_SECOND)),
                requests,
                errors,
                median(runs, r -> r.number(Fields.SERVER_CPU_US_PER_REQUEST)),
                median(runs, r -> r.number(Fields.SERVER_CPU_US_PER_REQUEST_WITHOUT_JIT)),
                median(runs, r -> r.number(Fields.SERVER_CPU_US_PER_VIEWER_SECOND)),
                median(runs, r -> r.number(Fields.GENERATOR_CPU_US_PER_REQUEST)),
                median(runs, r -> r.number(Fields.SERVER_CPU_PERCENT)),
                median(runs, r -> r.number(Fields.SERVER_IDLE_CPU_PERCENT)),
                median(runs, r -> r.number(Fields.SERVER_RSS_PEAK_BYTES) / MIB),
                median(runs, r -> r.number(Fields.SERVER_RSS_MEAN_BYTES) / MIB),
                median(runs, r -> r.number(Fields.SERVER_PSS_BYTES) / MIB),
                median(runs, r -> r.number(Fields.PART_DELAY_P99_MS)),
                median(runs, r -> r.number(Fields.VARIANT_PART_DELAY_P99_MS)),
                median(runs, r -> r.number(Fields.SEGMENT_DELAY_P99_MS)),
                median(runs, r -> r.number(Fields.RELEASE_LATENESS_P99_MS)),
                median(runs, r -> r.number(Fields.EDGE_ADVANCE)),
                median(runs, r -> r.number(Fields.PART_TARGET_MS)),
                limited,
                costlier,
                disturbed,
                first.string(Fields.SERVER_VERSION));
    }

    static double median(List<RunRecord> runs, ToDoubleFunction<RunRecord> f) {
        List<Double> v = new ArrayList<>();
        for (RunRecord r : runs) {
            double x = f.applyAsDouble(r);
            if (!Double.isNaN(x) && x >= 0) {
                v.add(x);
            }
        }
        return Summary.median(v);
    }

    /** Series name in tables and the chart: {@code tern classic}. */
    String series() {
        return server + " " + mode;
    }
}
