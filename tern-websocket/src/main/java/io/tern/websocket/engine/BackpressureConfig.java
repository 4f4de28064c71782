package io.tern.websocket.engine;

import java.util.concurrent.TimeUnit;

/**
 * Bounds on what one connection may queue for a peer that reads slowly. The transport reports how
 * many bytes it holds for the peer ({@link WebSocketEngine#onTransportBacklog}); the engine decides.
 *
 * @param lowWaterMarkBytes the connection is writable again once its backlog falls to this
 * @param highWaterMarkBytes above this it is unwritable, and the slow-reader clock runs
 * @param maxQueuedBytes a backlog above this closes the connection at once
 * @param slowReaderTimeoutNs how long the connection may stay unwritable before it is closed
 */
public record BackpressureConfig(
        int lowWaterMarkBytes, int highWaterMarkBytes, long maxQueuedBytes, long slowReaderTimeoutNs) {

    public BackpressureConfig {
        if (lowWaterMarkBytes < 0 || highWaterMarkBytes < lowWaterMarkBytes || maxQueuedBytes < highWaterMarkBytes) {
            throw new IllegalArgumentException("need 0 <= low water mark <= high water mark <= max queued bytes, got "
                    + lowWaterMarkBytes + ", " + highWaterMarkBytes + ", " + maxQueuedBytes);
        }
        if (slowReaderTimeoutNs <= 0) {
            throw new IllegalArgumentException("slow-reader timeout must be positive: " + slowReaderTimeoutNs);
        }
    }

    /** 256 KiB / 1 MiB water marks, 4 MiB hard cap, 10 s to drain. */
    public static BackpressureConfig defaults() {
        return new BackpressureConfig(256 * 1024, 1024 * 1024, 4L << 20, TimeUnit.SECONDS.toNanos(10));
    }

    public BackpressureConfig withMaxQueuedBytes(long maxQueuedBytes) {
        return new BackpressureConfig(lowWaterMarkBytes, highWaterMarkBytes, maxQueuedBytes, slowReaderTimeoutNs);
    }

    public BackpressureConfig withSlowReaderTimeoutNs(long slowReaderTimeoutNs) {
        return new BackpressureConfig(lowWaterMarkBytes, highWaterMarkBytes, maxQueuedBytes, slowReaderTimeoutNs);
    }

    public BackpressureConfig withWaterMarks(int lowWaterMarkBytes, int highWaterMarkBytes) {
        return new BackpressureConfig(lowWaterMarkBytes, highWaterMarkBytes, maxQueuedBytes, slowReaderTimeoutNs);
    }
}
