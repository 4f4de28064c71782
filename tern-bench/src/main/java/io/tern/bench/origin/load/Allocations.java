package io.tern.bench.origin.load;

import java.lang.management.ManagementFactory;

/**
 * Bytes the event loop threads have allocated on the heap so far (HotSpot's per-thread
 * allocation counter), to show what the generator allocates per request; -1 where the JVM does
 * not count.
 */
final class Allocations {
    private final long[] threadIds;
    private final com.sun.management.ThreadMXBean threads;

    Allocations(long[] threadIds) {
        this.threadIds = threadIds.clone();
        this.threads = ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                        && t.isThreadAllocatedMemorySupported()
                ? t
                : null;
        if (threads != null && !threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
    }

    long bytes() {
        if (threads == null) {
            return -1;
        }
        long n = 0;
        for (long b : threads.getThreadAllocatedBytes(threadIds)) {
            if (b < 0) {
                return -1;
            }
            n += b;
        }
        return n;
    }
}
