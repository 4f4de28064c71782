package io.tern.nostr.store;

import io.tern.nostr.event.Event;
import io.tern.nostr.filter.Filter;
import java.util.List;

/**
 * Where events are kept, as the relay engine sees it: asynchronous, so the engine stays sans-IO.
 * Every method returns at once; its result arrives later as a {@link StoreCompletion} through the
 * {@link StoreCompletionSink} the store was built with, and the adapter hands each one to
 * {@code NostrEngine.onStoreCompletion} on the engine's thread. A store never calls the engine.
 *
 * <p>Every implementation keeps NIP-01/09/40 semantics identically (see
 * {@link MemoryEvents}, the reference): duplicates by id; replaceable and addressable events by
 * address, newest created_at and then lowest id winning; deletion by the same author by id
 * ({@code e}) and by address ({@code a}, up to the request's created_at), refusing the deleted
 * events afterwards for as long as the deletion request is stored; expired events hidden from
 * queries and counts and removed by {@link #purgeExpired}.
 */
public interface EventStore extends AutoCloseable {
    /** Stores an event whose id and signature are verified; one {@link StoreCompletion.Written} follows, after commit. */
    void write(long requestId, Event event);

    /**
     * Runs each filter (each with a limit set) in order: its newest events first, ties by lowest
     * id, at most its limit, skipping events an earlier filter of this query returned and events
     * expired at {@code nowSeconds}. Results arrive as {@link StoreCompletion.QueryBatch}es, the
     * last one marked done; a heavy query is cut into time slices so that others progress too.
     */
    void query(long requestId, List<Filter> filters, long nowSeconds);

    /** Counts the distinct unexpired events matching any filter (limits ignored): one {@link StoreCompletion.Counted}. */
    void count(long requestId, List<Filter> filters, long nowSeconds);

    /** Stops a query or count; completions already on their way may still arrive and are to be ignored. */
    void cancel(long requestId);

    /** Deletes events whose NIP-40 expiration is at or before {@code nowSeconds}; no completion. */
    void purgeExpired(long nowSeconds);

    /**
     * An ephemeral event the engine accepted and broadcast here; it is never stored, but a store
     * that nodes of a fleet share hands it to the bus between them. No completion.
     */
    default void ephemeral(Event event) {}

    /** Stops the store's threads and closes its files; pending requests get no completion. */
    @Override
    void close();
}
