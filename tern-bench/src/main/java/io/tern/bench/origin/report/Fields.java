package io.tern.bench.origin.report;

/** Names of the JSONL fields the summary reads (the README's "Output" section lists them all). */
public final class Fields {
    private Fields() {}

    public static final String SERVER = "server";
    public static final String SERVER_VERSION = "server_version";
    public static final String MODE = "mode";
    public static final String VIEWERS = "viewers";
    public static final String REPEAT = "repeat";
    public static final String RENDITIONS = "renditions";
    public static final String REQUESTS = "requests";
    public static final String ERRORS = "errors";
    public static final String ERROR_DETAIL = "error_detail";
    public static final String REQUESTS_PER_SECOND = "requests_per_second";
    public static final String MEASURED_SECONDS = "measured_seconds";
    public static final String PART_DELAY_P50_MS = "part_delay_p50_ms";
    public static final String PART_DELAY_P99_MS = "part_delay_p99_ms";
    public static final String VARIANT_PART_DELAY_P50_MS = "variant_part_delay_p50_ms";
    public static final String VARIANT_PART_DELAY_P99_MS = "variant_part_delay_p99_ms";
    public static final String SEGMENT_DELAY_P50_MS = "segment_delay_p50_ms";
    public static final String SEGMENT_DELAY_P99_MS = "segment_delay_p99_ms";
    public static final String RELEASE_LATENESS_P50_MS = "release_lateness_p50_ms";
    public static final String RELEASE_LATENESS_P99_MS = "release_lateness_p99_ms";
    public static final String RELEASES = "releases";
    public static final String EDGE_ADVANCE = "edge_media_seconds_per_second";
    public static final String PART_TARGET_MS = "part_target_ms";
    public static final String SERVER_CPU_SECONDS = "server_cpu_seconds";
    public static final String SERVER_CPU_PERCENT = "server_cpu_percent";
    public static final String SERVER_PEAK_CPU_PERCENT = "server_peak_cpu_percent";
    public static final String SERVER_CPU_US_PER_REQUEST = "server_cpu_us_per_request";
    public static final String SERVER_CPU_US_PER_VIEWER_SECOND = "server_cpu_us_per_viewer_second";
    public static final String SERVER_JIT_CPU_SECONDS = "server_jit_cpu_seconds";
    public static final String SERVER_VM_THREAD_CPU_SECONDS = "server_vm_thread_cpu_seconds";
    public static final String SERVER_CPU_US_PER_REQUEST_WITHOUT_JIT = "server_cpu_us_per_request_without_jit";
    public static final String SERVER_RSS_PEAK_BYTES = "server_rss_peak_bytes";
    public static final String SERVER_RSS_MEAN_BYTES = "server_rss_mean_bytes";
    public static final String SERVER_PSS_BYTES = "server_pss_bytes";
    public static final String SERVER_IDLE_CPU_PERCENT = "server_idle_cpu_percent";
    public static final String GENERATOR_CPU_PERCENT = "generator_cpu_percent";
    public static final String GENERATOR_CPU_US_PER_REQUEST = "generator_cpu_us_per_request";
    public static final String GENERATOR_BOTTLENECK = "generator_bottleneck";
    public static final String GENERATOR_COSTLIER = "generator_costlier_than_server";
    public static final String PUBLISHER_CPU_PERCENT = "publisher_cpu_percent";
    public static final String OTHER_CPU_PERCENT = "other_cpu_percent";
    public static final String MACHINE_SATURATED = "machine_saturated";
    public static final String DISTURBED = "disturbed";
    public static final String LOAD_BEFORE = "load_average_before";
    public static final String ATTEMPT = "attempt";

    /** Per request kind: {@code <kind>_requests}, {@code _errors}, {@code _p50_ms}, {@code _p99_ms}, {@code _bytes}. */
    public static String ofKind(String kind, String suffix) {
        return kind + "_" + suffix;
    }
}
