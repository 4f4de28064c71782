package io.tern.bench.harness.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Reads a process's CPU time, RSS and UDP sockets from Linux {@code /proc}. Parsers are pure and tested on sample text. */
public final class ProcStats {
    /** USER_HZ; 100 on every mainstream Linux build (getconf CLK_TCK). */
    public static final int CLOCK_TICKS_PER_SECOND = 100;

    private ProcStats() {}

    /** utime + stime in clock ticks, from the text of /proc/pid/stat. The comm field may hold spaces and ')'. */
    public static long parseCpuTicks(String stat) {
        String[] f = statFields(stat);
        return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
    }

    /** stime alone: the process's CPU time in the kernel (its syscalls, and the softirq work they run inline). */
    public static long parseSystemCpuTicks(String stat) {
        return Long.parseLong(statFields(stat)[15 - 3]);
    }

    /** After "pid (comm) " the fields are numbered from 3 (state); utime is 14, stime 15. */
    private static String[] statFields(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("no comm field in stat");
        }
        return stat.substring(close + 2).trim().split("\\s+");
    }

    /** VmRSS in bytes from the text of /proc/pid/status, or -1 if absent (e.g. a zombie). */
    public static long parseVmRssBytes(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] f = line.substring(6).trim().split("\\s+");
                long value = Long.parseLong(f[0]);
                return f.length > 1 && f[1].equalsIgnoreCase("kB") ? value * 1024 : value;
            }
        }
        return -1;
    }

    /** Socket inode from an fd link target such as {@code socket:[12345]}, or -1 for other files. */
    public static long parseSocketInode(String linkTarget) {
        if (!linkTarget.startsWith("socket:[") || !linkTarget.endsWith("]")) {
            return -1;
        }
        return Long.parseLong(linkTarget.substring(8, linkTarget.length() - 1));
    }

    /** Inodes of the sockets listed in the text of /proc/net/udp or /proc/net/udp6 (column 10). */
    public static Set<Long> parseNetUdpInodes(String text) {
        Set<Long> inodes = new HashSet<>();
        String[] lines = text.split("\n");
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].trim().split("\\s+");
            if (f.length > 9) {
                inodes.add(Long.parseLong(f[9]));
            }
        }
        return inodes;
    }

    public static long cpuTicks(long pid) {
        return parseCpuTicks(stat(pid));
    }

    public static double cpuSeconds(long pid) {
        return cpuTicks(pid) / (double) CLOCK_TICKS_PER_SECOND;
    }

    public static double systemCpuSeconds(long pid) {
        return parseSystemCpuTicks(stat(pid)) / (double) CLOCK_TICKS_PER_SECOND;
    }

    private static String stat(long pid) {
        return read(Path.of("/proc", Long.toString(pid), "stat"));
    }

    public static long rssBytes(long pid) {
        return parseVmRssBytes(read(Path.of("/proc", Long.toString(pid), "status")));
    }

    public static String comm(long pid) {
        return read(Path.of("/proc", Long.toString(pid), "comm")).trim();
    }

    public static boolean alive(long pid) {
        return Files.exists(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** Number of the process's file descriptors that are UDP (v4 or v6) sockets. */
    public static int udpSockets(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Set<Long> udp = new HashSet<>(parseNetUdpInodes(read(proc.resolve("net/udp"))));
        udp.addAll(parseNetUdpInodes(read(proc.resolve("net/udp6"))));
        int count = 0;
        for (String target : fdTargets(proc.resolve("fd"))) {
            long inode = parseSocketInode(target);
            if (inode >= 0 && udp.contains(inode)) {
                count++;
            }
        }
        return count;
    }

    /** Child PIDs of {@code pid} (from every thread's children file). */
    public static List<Long> children(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> s = Files.list(tasks)) {
            return s.flatMap(t -> {
                        String text = read(t.resolve("children")).trim();
                        return text.isEmpty()
                                ? Stream.empty()
                                : Stream.of(text.split("\\s+")).map(Long::parseLong);
                    })
                    .toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static List<String> fdTargets(Path fdDir) {
        try (Stream<Path> s = Files.list(fdDir)) {
            return s.map(p -> {
                        try {
                            return Files.readSymbolicLink(p).toString();
                        } catch (IOException e) {
                            return ""; // fd closed between list and readlink
                        }
                    })
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
