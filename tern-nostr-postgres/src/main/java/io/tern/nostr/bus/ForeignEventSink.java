package io.tern.nostr.bus;

/**
 * Where a node's bus delivers the events other nodes accepted, each once, on the bus's thread.
 * The adapter's implementation hands each to the engine's thread, to be broadcast to the matching
 * live subscriptions as if a local client had sent it (but not stored again, nor answered with OK);
 * it must not call the engine directly.
 */
@FunctionalInterface
public interface ForeignEventSink {
    void deliver(ForeignEvent event);
}
