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
    CLIENT_BACKPRESSURE,
    /** A datagram that filled the transport's receive slot, so it may have been cut short. */
    OVERSIZED
}
