package io.tern.bench.harness.matrix;

import io.tern.bench.harness.sample.Host;
import io.tern.bench.harness.sample.MachineCpu;
import java.util.Locale;

/**
 * Waits for a quiet machine before a run: the 1-minute load average at most {@code maxLoad} and
 * the CPUs at most {@code maxBusyPercent} busy over a short sample, with none of the run's own
 * processes alive. Bounded: after {@code timeoutMs} the run starts anyway, and says so.
 */
public final class QuietMachine {
    public static final long POLL_MS = 5_000;

    public record Thresholds(double maxLoad, double maxBusyPercent, long timeoutMs, long sampleMs) {}

    /** The last check and how long the wait took. */
    public record Wait(double load1, double busyPercent, long waitedMs, boolean timedOut) {
        public String describe() {
            return String.format(
                    Locale.ROOT,
                    "load %.2f, %.0f%% busy%s",
                    load1,
                    busyPercent,
                    timedOut ? " (not quiet: waited " + waitedMs / 1000 + " s, ran anyway)" : "");
        }
    }

    private final Thresholds thresholds;

    public QuietMachine(Thresholds thresholds) {
        this.thresholds = thresholds;
    }

    public static boolean quiet(double load1, double busyPercent, Thresholds t) {
        return load1 <= t.maxLoad() && busyPercent <= t.maxBusyPercent();
    }

    /** The 1-minute load average from the text of /proc/loadavg. */
    public static double load1(String loadavg) {
        return Double.parseDouble(loadavg.trim().split("\\s+")[0]);
    }

    public Wait await() throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            double load = load1(Host.loadavg());
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
