package io.tern.bench.harness.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine a benchmark ran on, for a report's preamble: names, CPU model, kernel and load, from {@code /proc}. */
public final class Host {
    private Host() {}

    public static String hostName() {
        String h = readOrEmpty("/proc/sys/kernel/hostname").trim();
        return h.isEmpty() ? "host" : h;
    }

    public static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .orElse("unknown CPU");
        } catch (IOException e) {
            return "unknown CPU";
        }
    }

    public static String kernel() {
        return readOrEmpty("/proc/sys/kernel/osrelease").trim();
    }

    /** The whole text of /proc/loadavg (three averages, running/total tasks, last PID). */
    public static String loadavg() {
        String text = readOrEmpty("/proc/loadavg").trim();
        return text.isEmpty() ? "unknown" : text;
    }

    /** The 1-, 5- and 15-minute load averages alone. */
    public static String loadAverages() {
        String[] fields = loadavg().split(" ");
        return fields.length < 3 ? "unknown" : fields[0] + " " + fields[1] + " " + fields[2];
    }

    private static String readOrEmpty(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            return "";
        }
    }
}
