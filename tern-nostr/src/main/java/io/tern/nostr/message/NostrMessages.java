package io.tern.nostr.message;

import io.tern.nostr.json.JsonWriter;

/**
 * Relay-to-client messages as UTF-8 JSON. Each method writes into the caller's reusable writer
 * and returns a copy of exactly the message's bytes.
 */
public final class NostrMessages {
    private static final byte[] EVENT_TAIL = {']'};

    private NostrMessages() {}

    /** {@code ["OK",<event id>,<accepted>,<message>]}. */
    public static byte[] ok(JsonWriter w, String eventId, boolean accepted, String message) {
        w.reset().ascii("[\"OK\",").string(eventId).raw(',').bool(accepted).raw(',');
        return w.string(message).raw(']').toByteArray();
    }

    /** {@code ["EOSE",<subscription id>]}. */
    public static byte[] eose(JsonWriter w, String subscriptionId) {
        return w.reset().ascii("[\"EOSE\",").string(subscriptionId).raw(']').toByteArray();
    }

    /** {@code ["CLOSED",<subscription id>,<message>]}. */
    public static byte[] closed(JsonWriter w, String subscriptionId, String message) {
        w.reset().ascii("[\"CLOSED\",").string(subscriptionId).raw(',');
        return w.string(message).raw(']').toByteArray();
    }

    /** {@code ["NOTICE",<message>]}. */
    public static byte[] notice(JsonWriter w, String message) {
        return w.reset().ascii("[\"NOTICE\",").string(message).raw(']').toByteArray();
    }

    /** {@code ["AUTH",<challenge>]} (NIP-42). */
    public static byte[] authChallenge(JsonWriter w, String challenge) {
        return w.reset().ascii("[\"AUTH\",").string(challenge).raw(']').toByteArray();
    }

    /** {@code ["COUNT",<subscription id>,{"count":<n>}]} (NIP-45). */
    public static byte[] count(JsonWriter w, String subscriptionId, long count) {
        w.reset().ascii("[\"COUNT\",").string(subscriptionId);
        return w.ascii(",{\"count\":").number(count).ascii("}]").toByteArray();
    }

    /**
     * {@code ["EVENT",<subscription id>,} — the part of an EVENT message before the event object,
     * which is shared by every subscription it goes to; {@link #eventTail()} closes it.
     */
    public static byte[] eventHead(JsonWriter w, String subscriptionId) {
        return w.reset().ascii("[\"EVENT\",").string(subscriptionId).raw(',').toByteArray();
    }

    /** {@code ]}. Shared: do not modify. */
    public static byte[] eventTail() {
        return EVENT_TAIL;
    }
}
