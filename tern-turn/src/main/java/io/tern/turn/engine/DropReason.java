package io.tern.turn.engine;

/** Why a packet was dropped silently, for counters. */
public enum DropReason {
    NOT_STUN,
    MALFORMED,
    BAD_FINGERPRINT,
    NO_ALLOCATION,
    NO_CHANNEL,
    NO_PERMISSION,
    PEER_DENIED,
    RATE_LIMITED,
    UNEXPECTED_MESSAGE,
    /** Data for a TCP/TLS client whose write queue is full, or a UDP listener socket that takes no more this turn. */
    CLIENT_BACKPRESSURE,
    /** Data for a peer whose relay socket takes no more this turn. */
    PEER_BACKPRESSURE,
    /** A datagram that filled the transport's receive slot, so it may have been cut short. */
    OVERSIZED,
    /** A peer TCP connection refused (RFC 6062): no permission, peer policy, or the allocation's connection limit. */
    PEER_CONNECTION_REFUSED,
    /**
     * Datagrams the kernel dropped because a UDP socket's receive buffer was full. Engines never
     * count these; the metrics read them from the kernel (see the transport's kernelReceiveDrops).
     */
    SOCKET_RECEIVE_BUFFER_FULL
}
