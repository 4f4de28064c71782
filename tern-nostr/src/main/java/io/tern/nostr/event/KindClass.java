package io.tern.nostr.event;

/** How NIP-01 says a relay keeps an event of a given kind. */
public enum KindClass {
    /** Stored; every event is kept. */
    REGULAR,
    /** 0, 3 and 10000–19999: one per pubkey and kind, the newest (equal created_at: lowest id). */
    REPLACEABLE,
    /** 20000–29999: broadcast to live subscribers, never stored. */
    EPHEMERAL,
    /** 30000–39999: one per pubkey, kind and {@code d} tag, newest wins as for replaceable. */
    ADDRESSABLE;

    public static final int METADATA = 0;
    public static final int CONTACTS = 3;
    public static final int DELETION = 5;
    public static final int CLIENT_AUTH = 22242;
    public static final int MAX_KIND = 65535;

    public static KindClass of(int kind) {
        if (kind == METADATA || kind == CONTACTS || (kind >= 10000 && kind < 20000)) {
            return REPLACEABLE;
        }
        if (kind >= 20000 && kind < 30000) {
            return EPHEMERAL;
        }
        if (kind >= 30000 && kind < 40000) {
            return ADDRESSABLE;
        }
        return REGULAR;
    }

    /** Replaceable and addressable events have an address ({@code kind:pubkey:d}) that keeps one event. */
    public boolean hasAddress() {
        return this == REPLACEABLE || this == ADDRESSABLE;
    }
}
