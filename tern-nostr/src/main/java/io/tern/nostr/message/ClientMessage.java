package io.tern.nostr.message;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import java.util.List;

/** A client-to-relay message (NIP-01, NIP-42, NIP-45), or what to answer when it is malformed. */
public sealed interface ClientMessage {
    /** {@code ["EVENT", <event>]}: the event's fields are well formed; id and signature not yet checked. */
    record EventMessage(Event event) implements ClientMessage {}

    /** {@code ["REQ", <subscription id>, <filter>...]}. */
    record Req(String subscriptionId, List<Filter> filters) implements ClientMessage {}

    /** {@code ["COUNT", <subscription id>, <filter>...]} (NIP-45). */
    record Count(String subscriptionId, List<Filter> filters) implements ClientMessage {}

    /** {@code ["CLOSE", <subscription id>]}. */
    record Close(String subscriptionId) implements ClientMessage {}

    /** {@code ["AUTH", <kind 22242 event>]} (NIP-42). */
    record Auth(Event event) implements ClientMessage {}

    /**
     * A message that cannot be acted on. {@code answer} says how to reply: OK with the event id in
     * {@code ref}, CLOSED with the subscription id in {@code ref}, or NOTICE. {@code reason} carries
     * its machine-readable prefix.
     */
    record Invalid(Answer answer, String ref, String reason) implements ClientMessage {}

    enum Answer {
        OK,
        CLOSED,
        NOTICE
    }
}
