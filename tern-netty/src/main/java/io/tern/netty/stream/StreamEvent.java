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
    TLS_HANDSHAKE_TIMEOUT
}
