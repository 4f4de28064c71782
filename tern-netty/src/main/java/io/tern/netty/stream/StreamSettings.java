package io.tern.netty.stream;

import java.util.concurrent.TimeUnit;

/**
 * Bounds on TURN-over-TCP/TLS connections. Every connection's memory is bounded by its read buffer
 * (one message, at most {@link StreamFramer#MAX_FRAME_BYTES}) and its write queue (the high water
 * mark plus one message: past the mark, data for the client is dropped and counted).
 *
 * @param maxConnections         connections open at once, over all listeners and threads
 * @param maxConnectionsPerIp    connections open at once from one client IP
 * @param idleTimeoutNs          a connection without an allocation that received nothing for this long is closed
 * @param messageTimeoutNs       a message whose first byte arrived this long ago but which is still incomplete
 *                               closes its connection (slow-loris)
 * @param tlsHandshakeTimeoutNs  a TLS handshake not done within this closes the connection
 * @param writeLowWaterMarkBytes once the write queue is back below this, the client is writable again
 * @param writeHighWaterMarkBytes past this, the client is not writable and relayed data for it is dropped;
 *                               queued messages count their bytes plus {@link QueuedMessageSize#OVERHEAD_BYTES}
 */
public record StreamSettings(
        int maxConnections,
        int maxConnectionsPerIp,
        long idleTimeoutNs,
        long messageTimeoutNs,
        long tlsHandshakeTimeoutNs,
        int writeLowWaterMarkBytes,
        int writeHighWaterMarkBytes) {

    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_IP = 64;
    public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 30;
    public static final int DEFAULT_MESSAGE_TIMEOUT_SECONDS = 10;
    public static final int DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS = 10;
    public static final int DEFAULT_WRITE_LOW_WATER_MARK_BYTES = 64 * 1024;
    public static final int DEFAULT_WRITE_HIGH_WATER_MARK_BYTES = 256 * 1024;

    public StreamSettings {
        if (maxConnections < 1 || maxConnectionsPerIp < 1) {
            throw new IllegalArgumentException("connection limits must be at least 1");
        }
        if (idleTimeoutNs <= 0 || messageTimeoutNs <= 0 || tlsHandshakeTimeoutNs <= 0) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (writeLowWaterMarkBytes < 0 || writeHighWaterMarkBytes < writeLowWaterMarkBytes) {
            throw new IllegalArgumentException("write water marks must satisfy 0 <= low <= high");
        }
    }

    /** 10000 connections, 64 per IP, 30 s idle, 10 s per message and per TLS handshake, 64-256 KiB queue. */
    public static StreamSettings defaults() {
        return new StreamSettings(
                DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_CONNECTIONS_PER_IP,
                TimeUnit.SECONDS.toNanos(DEFAULT_IDLE_TIMEOUT_SECONDS),
                TimeUnit.SECONDS.toNanos(DEFAULT_MESSAGE_TIMEOUT_SECONDS),
                TimeUnit.SECONDS.toNanos(DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS),
                DEFAULT_WRITE_LOW_WATER_MARK_BYTES,
                DEFAULT_WRITE_HIGH_WATER_MARK_BYTES);
    }

    public StreamSettings withConnectionLimits(int total, int perIp) {
        return new StreamSettings(
                total,
                perIp,
                idleTimeoutNs,
                messageTimeoutNs,
                tlsHandshakeTimeoutNs,
                writeLowWaterMarkBytes,
                writeHighWaterMarkBytes);
    }

    public StreamSettings withTimeouts(long idleNs, long messageNs, long tlsHandshakeNs) {
        return new StreamSettings(
                maxConnections,
                maxConnectionsPerIp,
                idleNs,
                messageNs,
                tlsHandshakeNs,
                writeLowWaterMarkBytes,
                writeHighWaterMarkBytes);
    }

    public StreamSettings withWriteWaterMarks(int lowBytes, int highBytes) {
        return new StreamSettings(
                maxConnections,
                maxConnectionsPerIp,
                idleTimeoutNs,
                messageTimeoutNs,
                tlsHandshakeTimeoutNs,
                lowBytes,
                highBytes);
    }
}
