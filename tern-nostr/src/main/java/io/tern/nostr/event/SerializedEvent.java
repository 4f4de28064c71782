package io.tern.nostr.event;

/**
 * An event as it goes to clients: its id and its JSON object ({@code {"id":..,"sig":..}}), UTF-8.
 * Stores return these so that a query does not re-parse what it sends; {@link Event} is one.
 */
public interface SerializedEvent {
    /** Lowercase hex, 64 characters. */
    String id();

    long createdAt();

    /** The event object as UTF-8 JSON. Shared: callers must not modify it. */
    byte[] json();
}
