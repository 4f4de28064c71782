package io.tern.netty.hls;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The direct memory every stream's media chunks ({@link DirectChunkStore}) may hold together, so
 * that many streams cannot exhaust the JVM's direct memory (by default as large as its heap).
 * Thread-safe.
 */
public final class DirectBudget {
    private final long limitBytes;
    private final AtomicLong usedBytes = new AtomicLong();

    public DirectBudget(long limitBytes) {
        if (limitBytes < 1 << 20) {
            throw new IllegalArgumentException("limitBytes=" + limitBytes + ": must be at least 1 MiB");
        }
        this.limitBytes = limitBytes;
    }

    /** Takes {@code bytes} if they fit. */
    boolean tryTake(long bytes) {
        while (true) {
            long used = usedBytes.get();
            if (used + bytes > limitBytes) {
                return false;
            }
            if (usedBytes.compareAndSet(used, used + bytes)) {
                return true;
            }
        }
    }

    void give(long bytes) {
        usedBytes.addAndGet(-bytes);
    }

    public long usedBytes() {
        return usedBytes.get();
    }

    public long limitBytes() {
        return limitBytes;
    }
}
