package io.tern.netty.stream;

/** What happened to TCP/TLS connections, for {@link StreamCounters}. */
public enum StreamEvent {
    ACCEPTED,
    CLOSED,
    REJECTED_TOTAL_LIMIT,
    REJECTED_PER_IP_LIMIT,
    IDLE_TIMEOUT,
    MESSAGE_TIMEOUT,
    BAD_FRAMING,
    TLS_HANDSHAKE_FAILED,
    TLS_HANDSHAKE_TIMEOUT,
    /** Handed to another relay thread: a data connection whose CONNECTION-ID that thread issued (RFC 6062). */
    MOVED_TO_OTHER_THREAD
}
