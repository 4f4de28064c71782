package io.tern.bench.origin.runner;

import io.tern.bench.origin.load.MachineCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Waits for a quiet machine before a run: the 1-minute load average at most {@code maxLoad} and
 * the CPUs at most {@code maxBusyPercent} busy over a short sample, with none of the run's own
 * processes alive. Bounded: after {@code timeoutMs} the run starts anyway, and says so.
 */
final class QuietMachine {
    static final long POLL_MS = 5_000;

    record Thresholds(double maxLoad, double maxBusyPercent, long timeoutMs, long sampleMs) {}

    /** The last check and how long the wait took. */
    record Wait(double load1, double busyPercent, long waitedMs, boolean timedOut) {
        String describe() {
            return String.format(
                    Locale.ROOT,
                    "load %.2f, %.0f%% busy%s",
                    load1,
                    busyPercent,
                    timedOut ? " (not quiet: waited " + waitedMs / 1000 + " s, ran anyway)" : "");
        }
    }

    private final Thresholds thresholds;

    QuietMachine(Thresholds thresholds) {
        this.thresholds = thresholds;
    }

    static boolean quiet(double load1, double busyPercent, Thresholds t) {
        return load1 <= t.maxLoad() && busyPercent <= t.maxBusyPercent();
    }

    /** The 1-minute load average from the text of /proc/loadavg. */
    static double load1(String loadavg) {
        return Double.parseDouble(loadavg.trim().split("\\s+")[0]);
    }

    static String loadavg() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    Wait await() throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            double load = load1(loadavg());
            MachineCpu a = MachineCpu.now();
            Thread.sleep(thresholds.sampleMs());
            double busy = 100 * MachineCpu.now().busyFractionSince(a);
            long waited = (System.nanoTime() - start) / 1_000_000L;
            if (quiet(load, busy, thresholds)) {
                return new Wait(load, busy, waited, false);
            }
            if (waited >= thresholds.timeoutMs()) {
                return new Wait(load, busy, waited, true);
            }
            Thread.sleep(Math.min(POLL_MS, Math.max(0, thresholds.timeoutMs() - waited)));
        }
    }
}
