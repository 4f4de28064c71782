package io.tern.nostr.engine;

/** The engine's answer to a new connection ({@link NostrEngine#onOpen}). */
public enum Admission {
    /** Open; the AUTH challenge is queued. */
    ACCEPTED,
    /** The client's IP already has {@code max-connections-per-ip} connections: refuse it (HTTP 429 or close). */
    TOO_MANY_FROM_IP,
    /** The connection id is already open: an adapter bug, refused. */
    DUPLICATE_ID
}
