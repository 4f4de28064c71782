package io.tern.rtmp.flv;

/**
 * One track's RTMP timestamps (32-bit milliseconds) extended to 64 bits: each step is the signed
 * 32-bit difference from the previous one, so the count wraps after 49.7 days without a jump, and
 * a timestamp that goes back stays back.
 */
final class TrackTimeline {
    private boolean started;
    private long lastMs;

    long extend(long timestamp32) {
        if (!started) {
            started = true;
            lastMs = timestamp32;
            return lastMs;
        }
        int step = (int) (timestamp32 - (lastMs & 0xFFFFFFFFL));
        lastMs += step;
        return lastMs;
    }
}
