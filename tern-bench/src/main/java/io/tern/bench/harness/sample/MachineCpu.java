package io.tern.bench.harness.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The whole machine's CPU time from the first line of {@code /proc/stat}, in clock ticks. */
public record MachineCpu(long busyTicks, long totalTicks) {

    public static MachineCpu now() {
        try {
            return parse(Files.readString(Path.of("/proc/stat")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** busy = user + nice + system + irq + softirq + steal; total adds idle and iowait. */
    public static MachineCpu parse(String stat) {
        String first = stat.substring(0, stat.indexOf('\n') < 0 ? stat.length() : stat.indexOf('\n'));
        String[] f = first.trim().split("\\s+");
        if (!f[0].equals("cpu") || f.length < 8) {
            throw new IllegalArgumentException("not /proc/stat: " + first);
        }
        long user = Long.parseLong(f[1]);
        long nice = Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]);
        long idle = Long.parseLong(f[4]);
        long iowait = Long.parseLong(f[5]);
        long irq = Long.parseLong(f[6]);
        long softirq = Long.parseLong(f[7]);
        long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        long busy = user + nice + system + irq + softirq + steal;
        return new MachineCpu(busy, busy + idle + iowait);
    }

    /** Busy share of all CPUs between {@code earlier} and this sample, 0..1; NaN without elapsed time. */
    public double busyFractionSince(MachineCpu earlier) {
        long total = totalTicks - earlier.totalTicks;
        return total <= 0 ? Double.NaN : (busyTicks - earlier.busyTicks) / (double) total;
    }
}
