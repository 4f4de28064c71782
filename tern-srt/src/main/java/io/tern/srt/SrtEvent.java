package io.tern.srt;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;

/** What happened to a session, queued for the owner in order. */
public sealed interface SrtEvent {
    /**
     * A caller asks to publish {@code streamId} (its cookie proved its address and the listener's
     * own checks passed). Answer with {@link SrtListener#acceptPublish} or {@link
     * SrtListener#rejectPublish}, now or later; the caller waits for either.
     */
    record PublishRequested(long requestId, InetSocketAddress peer, StreamId streamId) implements SrtEvent {}

    /** A handshake completed; {@code streamId} is null for a caller's own session. */
    record Connected(long sessionId, InetSocketAddress peer, StreamId streamId, int latencyMs, int keyLength)
            implements SrtEvent {}

    /**
     * A connection was refused, with the libsrt code ({@link RejectReason}): by this listener (the
     * caller was told the same code), or by the peer this caller tried.
     */
    record Rejected(long sessionId, InetSocketAddress peer, int code, String streamId) implements SrtEvent {
        public String reason() {
            return RejectReason.name(code);
        }
    }

    /** A connected session ended; {@code stats} are its final counters. */
    record Closed(long sessionId, InetSocketAddress peer, CloseReason reason, SrtStats stats) implements SrtEvent {}

    enum CloseReason {
        /** The peer sent SHUTDOWN. */
        PEER_SHUTDOWN,
        /** Nothing arrived for the idle timeout. */
        IDLE_TIMEOUT,
        /** The owner closed it. */
        LOCAL
    }
}
