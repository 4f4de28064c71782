package io.tern.hls.packager;

/** Bytes of media a stream holds, against {@code maxRetainedBytes}. */
final class MemoryBudget {
    private final long maxBytes;
    private long bytes;

    MemoryBudget(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    void add(long n) {
        bytes += n;
    }

    void release(long n) {
        bytes -= n;
    }

    long bytes() {
        return bytes;
    }

    boolean over() {
        return bytes > maxBytes;
    }
}
