package io.tern.rtmp.session;

import io.tern.rtmp.chunk.ChunkReader;
import java.util.concurrent.TimeUnit;

/**
 * Bounds and timers of one RTMP session, server or client. Every bound is enforced by the
 * engine; a session's memory is at most {@code maxBufferedBytes} of assembly buffers plus the
 * bytes one input produces.
 *
 * @param maxChunkSizeBytes        the largest Set Chunk Size accepted from the peer (at most 16 MiB)
 * @param outgoingChunkSizeBytes   the chunk size this side announces and writes with
 * @param maxMessageBytes          the longest message accepted (a keyframe is one message)
 * @param maxChunkStreams          chunk streams the peer may use
 * @param maxBufferedBytes         assembly buffers of all chunk streams together
 * @param windowAckSizeBytes       the acknowledgement window asked of the peer, and its peer bandwidth
 * @param maxUnacknowledgedBytes   client: media is refused while this many sent bytes are unacknowledged
 *                                 by a peer that acknowledges at all
 * @param handshakeTimeoutNs       the handshake must complete within this
 * @param setupTimeoutNs           server: from the handshake to an accepted publish
 * @param idleTimeoutNs            server: without a complete message (once publishing, without media)
 * @param decisionTimeoutNs        server: the application's time to accept or refuse a publish
 * @param commandTimeoutNs         client: the server's time to answer connect, createStream and publish
 * @param maxTimestampGapMs        a DTS step forward larger than this is reported as a jump
 * @param maxMessageStreams        server: createStream calls answered per connection
 */
public record RtmpSettings(
        int maxChunkSizeBytes,
        int outgoingChunkSizeBytes,
        int maxMessageBytes,
        int maxChunkStreams,
        long maxBufferedBytes,
        int windowAckSizeBytes,
        long maxUnacknowledgedBytes,
        long handshakeTimeoutNs,
        long setupTimeoutNs,
        long idleTimeoutNs,
        long decisionTimeoutNs,
        long commandTimeoutNs,
        long maxTimestampGapMs,
        int maxMessageStreams) {

    public RtmpSettings {
        check(
                maxChunkSizeBytes >= 128 && maxChunkSizeBytes <= ChunkReader.MAX_CHUNK_SIZE,
                "maxChunkSizeBytes",
                maxChunkSizeBytes);
        check(
                outgoingChunkSizeBytes >= 128 && outgoingChunkSizeBytes <= ChunkReader.MAX_CHUNK_SIZE,
                "outgoingChunkSizeBytes",
                outgoingChunkSizeBytes);
        check(maxMessageBytes >= 1024 && maxMessageBytes <= 0xFFFFFF, "maxMessageBytes", maxMessageBytes);
        check(maxChunkStreams >= 2 && maxChunkStreams <= 65598, "maxChunkStreams", maxChunkStreams);
        check(maxBufferedBytes >= maxMessageBytes, "maxBufferedBytes", maxBufferedBytes);
        check(windowAckSizeBytes >= 1, "windowAckSizeBytes", windowAckSizeBytes);
        check(maxUnacknowledgedBytes >= windowAckSizeBytes, "maxUnacknowledgedBytes", maxUnacknowledgedBytes);
        check(handshakeTimeoutNs > 0, "handshakeTimeoutNs", handshakeTimeoutNs);
        check(setupTimeoutNs > 0, "setupTimeoutNs", setupTimeoutNs);
        check(idleTimeoutNs > 0, "idleTimeoutNs", idleTimeoutNs);
        check(decisionTimeoutNs > 0, "decisionTimeoutNs", decisionTimeoutNs);
        check(commandTimeoutNs > 0, "commandTimeoutNs", commandTimeoutNs);
        check(maxTimestampGapMs > 0, "maxTimestampGapMs", maxTimestampGapMs);
        check(maxMessageStreams >= 1, "maxMessageStreams", maxMessageStreams);
    }

    /**
     * 16 MiB chunks at most, 4096-byte chunks out, 8 MiB messages, 64 chunk streams, 32 MiB
     * buffered, a 2.5 MB acknowledgement window (nginx-rtmp's and OBS's), 10 MB unacknowledged,
     * 10 s handshake, 30 s setup, 20 s idle, 10 s decision, 15 s for commands (longer than a
     * server's decision), 10 s timestamp gap,
     * 8 message streams.
     */
    public static RtmpSettings defaults() {
        return new RtmpSettings(
                ChunkReader.MAX_CHUNK_SIZE,
                4096,
                8 * 1024 * 1024,
                64,
                32L * 1024 * 1024,
                2_500_000,
                10_000_000,
                TimeUnit.SECONDS.toNanos(10),
                TimeUnit.SECONDS.toNanos(30),
                TimeUnit.SECONDS.toNanos(20),
                TimeUnit.SECONDS.toNanos(10),
                TimeUnit.SECONDS.toNanos(15),
                10_000,
                8);
    }

    /** A builder starting from these settings, to change a few. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Settings one field at a time; {@link #build()} checks every range. */
    public static final class Builder {
        private int maxChunkSizeBytes;
        private int outgoingChunkSizeBytes;
        private int maxMessageBytes;
        private int maxChunkStreams;
        private long maxBufferedBytes;
        private int windowAckSizeBytes;
        private long maxUnacknowledgedBytes;
        private long handshakeTimeoutNs;
        private long setupTimeoutNs;
        private long idleTimeoutNs;
        private long decisionTimeoutNs;
        private long commandTimeoutNs;
        private long maxTimestampGapMs;
        private int maxMessageStreams;

        private Builder(RtmpSettings s) {
            maxChunkSizeBytes = s.maxChunkSizeBytes;
            outgoingChunkSizeBytes = s.outgoingChunkSizeBytes;
            maxMessageBytes = s.maxMessageBytes;
            maxChunkStreams = s.maxChunkStreams;
            maxBufferedBytes = s.maxBufferedBytes;
            windowAckSizeBytes = s.windowAckSizeBytes;
            maxUnacknowledgedBytes = s.maxUnacknowledgedBytes;
            handshakeTimeoutNs = s.handshakeTimeoutNs;
            setupTimeoutNs = s.setupTimeoutNs;
            idleTimeoutNs = s.idleTimeoutNs;
            decisionTimeoutNs = s.decisionTimeoutNs;
            commandTimeoutNs = s.commandTimeoutNs;
            maxTimestampGapMs = s.maxTimestampGapMs;
            maxMessageStreams = s.maxMessageStreams;
        }

        public Builder maxChunkSizeBytes(int bytes) {
            maxChunkSizeBytes = bytes;
            return this;
        }

        public Builder outgoingChunkSizeBytes(int bytes) {
            outgoingChunkSizeBytes = bytes;
            return this;
        }

        public Builder maxMessageBytes(int bytes) {
            maxMessageBytes = bytes;
            return this;
        }

        public Builder maxChunkStreams(int streams) {
            maxChunkStreams = streams;
            return this;
        }

        public Builder maxBufferedBytes(long bytes) {
            maxBufferedBytes = bytes;
            return this;
        }

        public Builder windowAckSizeBytes(int bytes) {
            windowAckSizeBytes = bytes;
            return this;
        }

        public Builder maxUnacknowledgedBytes(long bytes) {
            maxUnacknowledgedBytes = bytes;
            return this;
        }

        public Builder handshakeTimeoutNs(long ns) {
            handshakeTimeoutNs = ns;
            return this;
        }

        public Builder setupTimeoutNs(long ns) {
            setupTimeoutNs = ns;
            return this;
        }

        public Builder idleTimeoutNs(long ns) {
            idleTimeoutNs = ns;
            return this;
        }

        public Builder decisionTimeoutNs(long ns) {
            decisionTimeoutNs = ns;
            return this;
        }

        public Builder commandTimeoutNs(long ns) {
            commandTimeoutNs = ns;
            return this;
        }

        public Builder maxTimestampGapMs(long ms) {
            maxTimestampGapMs = ms;
            return this;
        }

        public Builder maxMessageStreams(int streams) {
            maxMessageStreams = streams;
            return this;
        }

        public RtmpSettings build() {
            return new RtmpSettings(
                    maxChunkSizeBytes,
                    outgoingChunkSizeBytes,
                    maxMessageBytes,
                    maxChunkStreams,
                    maxBufferedBytes,
                    windowAckSizeBytes,
                    maxUnacknowledgedBytes,
                    handshakeTimeoutNs,
                    setupTimeoutNs,
                    idleTimeoutNs,
                    decisionTimeoutNs,
                    commandTimeoutNs,
                    maxTimestampGapMs,
                    maxMessageStreams);
        }
    }

    private static void check(boolean ok, String name, long value) {
        if (!ok) {
            throw new IllegalArgumentException("RTMP setting " + name + " = " + value + " is out of range");
        }
    }
}
