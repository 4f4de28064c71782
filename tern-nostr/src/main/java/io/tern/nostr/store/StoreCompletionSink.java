package io.tern.nostr.store;

/**
 * Receives a store's completions, on the store's own threads. The adapter's implementation hands
 * each to the engine's thread (an event-loop task, a queue); it must not call the engine directly.
 */
@FunctionalInterface
public interface StoreCompletionSink {
    void complete(StoreCompletion completion);
}
