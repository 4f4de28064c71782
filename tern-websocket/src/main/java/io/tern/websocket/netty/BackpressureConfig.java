package io.tern.websocket.netty;

import java.util.concurrent.TimeUnit;

/**
 * Bounds on what one connection may queue for a peer that reads slowly.
 *
 * @param lowWaterMarkBytes reading from the peer resumes once queued bytes fall below this
 * @param highWaterMarkBytes above this the channel is unwritable and we stop reading from the peer
 * @param maxPendingWriteBytes hard cap on queued bytes; exceeding it closes the connection at once
 * @param slowReaderTimeoutNs how long the channel may stay unwritable before the connection is closed
 */
public record BackpressureConfig(
        int lowWaterMarkBytes, int highWaterMarkBytes, long maxPendingWriteBytes, long slowReaderTimeoutNs) {

    public static BackpressureConfig defaults() {
        return new BackpressureConfig(256 * 1024, 1024 * 1024, 4L << 20, TimeUnit.SECONDS.toNanos(10));
    }

    public BackpressureConfig withMaxPendingWriteBytes(long maxPendingWriteBytes) {
        return new BackpressureConfig(lowWaterMarkBytes, highWaterMarkBytes, maxPendingWriteBytes, slowReaderTimeoutNs);
    }

    public BackpressureConfig withSlowReaderTimeoutNs(long slowReaderTimeoutNs) {
        return new BackpressureConfig(lowWaterMarkBytes, highWaterMarkBytes, maxPendingWriteBytes, slowReaderTimeoutNs);
    }
}
