package io.tern.netty.rtmp;

import io.tern.rtmp.session.RtmpSettings;

/**
 * The RTMP listener's bounds.
 *
 * @param engine                  the engine's bounds and timers, for every connection
 * @param maxConnections          connections open at once; more are closed as they arrive
 * @param writeLowWaterMarkBytes  a connection's write queue is writable again below this
 * @param writeHighWaterMarkBytes past this the connection is dropped: its peer is not reading what it is sent
 */
public record RtmpListenerSettings(
        RtmpSettings engine, int maxConnections, int writeLowWaterMarkBytes, int writeHighWaterMarkBytes) {

    public RtmpListenerSettings {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections = " + maxConnections + " must be at least 1");
        }
        if (writeLowWaterMarkBytes < 0 || writeHighWaterMarkBytes < writeLowWaterMarkBytes) {
            throw new IllegalArgumentException("write water marks must satisfy 0 <= low <= high, got "
                    + writeLowWaterMarkBytes + " and " + writeHighWaterMarkBytes);
        }
    }

    /** The engine's defaults, 1000 connections, a 32-256 KiB write queue. */
    public static RtmpListenerSettings defaults() {
        return new RtmpListenerSettings(RtmpSettings.defaults(), 1000, 32 * 1024, 256 * 1024);
    }

    public RtmpListenerSettings withEngine(RtmpSettings settings) {
        return new RtmpListenerSettings(settings, maxConnections, writeLowWaterMarkBytes, writeHighWaterMarkBytes);
    }
}
