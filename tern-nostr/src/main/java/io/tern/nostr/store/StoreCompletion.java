package io.tern.nostr.store;

import io.tern.nostr.event.SerializedEvent;
import java.util.List;

/** A store's answer to one request, identified by the request id the engine chose. */
public sealed interface StoreCompletion {
    long requestId();

    /** The outcome of {@link EventStore#write}, sent after the transaction that decided it committed. */
    record Written(long requestId, WriteOutcome outcome, String errorMessage) implements StoreCompletion {}

    /** Some of a query's results, in order; {@code done} on the last batch. */
    record QueryBatch(long requestId, List<SerializedEvent> events, boolean done) implements StoreCompletion {}

    /** The result of {@link EventStore#count}. */
    record Counted(long requestId, long count) implements StoreCompletion {}

    /** A query or count that failed (for instance an I/O error); nothing else follows for it. */
    record Failed(long requestId, String errorMessage) implements StoreCompletion {}
}
