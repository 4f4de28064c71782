package io.tern.netty.relay;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Datagrams the kernel dropped because one of this process's UDP sockets had a full receive
 * buffer: the {@code drops} column of {@code /proc/net/udp} and {@code udp6}, for the sockets
 * {@code /proc/self/fd} holds. Netty does not see these losses, so they are read from the kernel
 * when asked (at a metrics scrape), never per packet. The total only grows: each socket's count is
 * added as it rises, so drops of a socket closed between two reads are not counted. On systems
 * without {@code /proc} it stays 0.
 */
public final class KernelUdpDrops {
    private static final Path SELF_FD = Path.of("/proc/self/fd");
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/udp"), Path.of("/proc/net/udp6"));
    private static final String SOCKET_LINK_PREFIX = "socket:[";
    private static final int INODE_COLUMN = 9;
    private static final int DROPS_COLUMN = 12;

    private final Map<Long, Long> lastByInode = new HashMap<>();
    private long total;

    /** Reads the kernel's counts now and returns the total so far. */
    public synchronized long total() {
        Set<Long> inodes = socketInodes();
        Map<Long, Long> seen = new HashMap<>();
        for (Path table : TABLES) {
            readTable(table, inodes, seen);
        }
        for (Map.Entry<Long, Long> e : seen.entrySet()) {
            long last = lastByInode.getOrDefault(e.getKey(), 0L);
            total += Math.max(0, e.getValue() - last);
        }
        lastByInode.clear();
        lastByInode.putAll(seen);
        return total;
    }

    private static Set<Long> socketInodes() {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(SELF_FD)) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(SOCKET_LINK_PREFIX)) {
                        inodes.add(Long.parseLong(target.substring(SOCKET_LINK_PREFIX.length(), target.length() - 1)));
                    }
                } catch (IOException | NumberFormatException e) {
                    // closed meanwhile, or not a socket
                }
            }
        } catch (IOException e) {
            // no /proc
        }
        return inodes;
    }

    private static void readTable(Path table, Set<Long> inodes, Map<Long, Long> seen) {
        List<String> lines;
        try {
            lines = Files.readAllLines(table);
        } catch (IOException e) {
            return;
        }
        for (int i = 1; i < lines.size(); i++) {
            String[] columns = lines.get(i).trim().split("\\s+");
            if (columns.length <= DROPS_COLUMN) {
                continue;
            }
            try {
                long inode = Long.parseLong(columns[INODE_COLUMN]);
                if (inodes.contains(inode)) {
                    seen.merge(inode, Long.parseLong(columns[DROPS_COLUMN]), Long::sum);
                }
            } catch (NumberFormatException e) {
                // a malformed line: skip it
            }
        }
    }
}
