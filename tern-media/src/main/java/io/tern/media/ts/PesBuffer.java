package io.tern.media.ts;

/**
 * One elementary stream's PES packet being reassembled from TS payloads, bounded: a PES larger
 * than {@code maxBytes} is abandoned, never grown.
 */
final class PesBuffer {
    final int pid;
    private final int maxBytes;
    byte[] data = new byte[4096];
    int length;
    boolean active;
    boolean broken;
    /** PES_packet_length's promise of payload bytes, or -1 when unbounded (video). */
    int expected = -1;

    long pts = -1;
    long dts = -1;

    PesBuffer(int pid, int maxBytes) {
        this.pid = pid;
        this.maxBytes = maxBytes;
    }

    void start(long pts, long dts, int expected) {
        this.active = true;
        this.broken = false;
        this.length = 0;
        this.pts = pts;
        this.dts = dts;
        this.expected = expected;
    }

    /** Appends; false when the bound was passed (the PES is then broken). */
    boolean append(byte[] b, int off, int len) {
        if (length + len > maxBytes) {
            broken = true;
            return false;
        }
        if (length + len > data.length) {
            byte[] bigger = new byte[Math.min(maxBytes, Math.max(data.length * 2, length + len))];
            System.arraycopy(data, 0, bigger, 0, length);
            data = bigger;
        }
        System.arraycopy(b, off, data, length, len);
        length += len;
        return true;
    }

    boolean complete() {
        return expected >= 0 && length >= expected;
    }

    void reset() {
        active = false;
        broken = false;
        length = 0;
        expected = -1;
    }
}
