package io.tern.bench.harness.sample;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server measured as a process and its descendants (nginx's master and workers; Tern's one
 * JVM), read from {@code /proc}. Parsers are pure and tested on sample text.
 */
public final class ProcessTree {
    private static final int MAX_PROCESSES = 256;

    private final long rootPid;

    public ProcessTree(long rootPid) {
        this.rootPid = rootPid;
    }

    public long rootPid() {
        return rootPid;
    }

    /** The root and every descendant alive now (bounded). */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>();
        if (rootPid <= 0 || !ProcStats.alive(rootPid)) {
            return out;
        }
        out.add(rootPid);
        for (int i = 0; i < out.size() && out.size() < MAX_PROCESSES; i++) {
            out.addAll(ProcStats.children(out.get(i)));
        }
        return out;
    }

    /** utime + stime of every member, in clock ticks. */
    public long cpuTicks() {
        long n = 0;
        for (long pid : pids()) {
            try {
                n += ProcStats.cpuTicks(pid);
            } catch (RuntimeException gone) {
                // exited between listing and reading
            }
        }
        return n;
    }

    /**
     * utime + stime, in clock ticks, of the threads of every member whose name starts with one of
     * {@code prefixes} (a JVM's compiler threads, say: nginx has none, so its figure is 0).
     */
    public long threadTicks(String... prefixes) {
        long n = 0;
        for (long pid : pids()) {
            for (String prefix : prefixes) {
                n += Math.max(0, threadTicks(pid, prefix));
            }
        }
        return n;
    }

    /** utime + stime, in clock ticks, of the threads of {@code pid} whose name starts with {@code prefix}. */
    public static long threadTicks(long pid, String prefix) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long n = 0;
        try (java.util.stream.Stream<Path> s = Files.list(tasks)) {
            for (Path t : s.toList()) {
                try {
                    if (Files.readString(t.resolve("comm")).startsWith(prefix)) {
                        n += ProcStats.parseCpuTicks(Files.readString(t.resolve("stat")));
                    }
                } catch (IOException gone) {
                    // the thread ended between listing and reading
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }

    /** Sum of VmRSS (shared pages counted once per process, as top shows them). */
    public long rssBytes() {
        long n = 0;
        for (long pid : pids()) {
            long rss = ProcStats.rssBytes(pid);
            n += Math.max(0, rss);
        }
        return n;
    }

    /** Sum of Pss from smaps_rollup (shared pages split between the processes sharing them); -1 if unreadable. */
    public long pssBytes() {
        long n = 0;
        for (long pid : pids()) {
            try {
                long pss = parseRollupPssBytes(Files.readString(Path.of("/proc", Long.toString(pid), "smaps_rollup")));
                if (pss < 0) {
                    return -1;
                }
                n += pss;
            } catch (NoSuchFileException gone) {
                // exited
            } catch (IOException e) {
                return -1;
            }
        }
        return n;
    }

    /** Pss in bytes from the text of /proc/pid/smaps_rollup, or -1. */
    static long parseRollupPssBytes(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("Pss:")) {
                String[] f = line.substring(4).trim().split("\\s+");
                return Long.parseLong(f[0]) * 1024;
            }
        }
        return -1;
    }

    /** The soft limit on open files of this process, from /proc/self/limits, or -1. */
    public static long openFilesLimit() {
        try {
            return parseOpenFilesLimit(Files.readString(Path.of("/proc/self/limits")));
        } catch (IOException e) {
            return -1;
        }
    }

    static long parseOpenFilesLimit(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max open files")) {
                String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                return f[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(f[0]);
            }
        }
        return -1;
    }
}
