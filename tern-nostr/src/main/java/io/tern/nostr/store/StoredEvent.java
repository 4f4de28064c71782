package io.tern.nostr.store;

import io.tern.nostr.event.SerializedEvent;

/** An event read back from a store: no more than what is sent to clients. */
public record StoredEvent(String id, long createdAt, byte[] json) implements SerializedEvent {}
