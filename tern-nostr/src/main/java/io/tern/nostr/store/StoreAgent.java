package io.tern.nostr.store;

/**
 * One of a store's workers as a step function, with no thread of its own: the server runs each on
 * a thread ({@code doWork} while there is work, {@code awaitWork} when there is none), and a test
 * calls {@code doWork} itself to decide exactly when a batch commits or a query slice runs.
 * Only one thread at a time may step an agent.
 */
public interface StoreAgent {
    /**
     * Does one bounded unit of what is waiting (a batch of writes committed, a query slice run)
     * and emits its completions; returns how many requests it worked on, 0 when there was nothing.
     */
    int doWork();

    /**
     * Blocks until a request may be waiting or {@code timeoutNs} has passed; returns at once when
     * work is already waiting.
     */
    void awaitWork(long timeoutNs) throws InterruptedException;

    /** The agent's name, for its thread ({@code tern-nostr-sqlite-writer}). */
    String roleName();
}
