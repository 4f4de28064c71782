package io.tern.bench.harness.report;

import io.tern.bench.harness.sample.Host;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;

/**
 * The lines every matrix report opens with: where and when it ran, how loaded the machine was,
 * how long it took and the command that made it. Each benchmark adds its own lines (the servers'
 * versions, the method) after these.
 */
public final class Preamble {
    private Preamble() {}

    /**
     * @param loadBefore /proc/loadavg when the matrix started ({@link Host#loadavg}); the "after"
     *     figure is read now
     * @param command the command as typed, e.g. {@code bench/run --quick}
     */
    public static List<String> of(String loadBefore, double minutes, int plannedRuns, String command) {
        return List.of(
                "- date: " + LocalDate.now() + ", host: " + Host.hostName(),
                "- machine: " + Host.cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                        + " logical CPUs, kernel " + Host.kernel() + ", JDK " + Runtime.version(),
                "- load average before: " + loadBefore + "; after: " + Host.loadavg(),
                String.format(Locale.ROOT, "- wall time: %.1f min for %d planned runs", minutes, plannedRuns),
                "- command: `" + command + "`");
    }
}
