package io.tern.nostr.store;

/** What storing an event came to. */
public enum WriteOutcome {
    /** Committed (and, for replaceable or addressable kinds, the older version removed). */
    STORED,
    /** An event with this id is already stored. */
    DUPLICATE,
    /** A newer event (or an equally old one with a lower id) holds this event's address. */
    SUPERSEDED,
    /** A stored deletion request by the same author names this event (NIP-09). */
    DELETED,
    /** The store failed; nothing was committed for this event. */
    ERROR
}
