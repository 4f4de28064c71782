package io.tern.nostr.engine;

import io.tern.nostr.message.Prefix;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Plain counters for the server to export (Prometheus). Written by the engine's thread only,
 * readable from any thread.
 */
public final class NostrCounters {
    /** Upper bounds (inclusive) of the query time histogram's buckets, in nanoseconds; a last bucket holds the rest. */
    public static final long[] QUERY_TIME_BOUNDS_NS = {
        1_000_000L, 5_000_000L, 10_000_000L, 50_000_000L, 100_000_000L, 500_000_000L, 1_000_000_000L
    };

    final AtomicLong connectionsOpened = new AtomicLong();
    final AtomicLong connectionsRefused = new AtomicLong();
    final AtomicLong connectionsClosed = new AtomicLong();
    final AtomicLong slowReaderDisconnects = new AtomicLong();
    final AtomicLong subscriptionsOpened = new AtomicLong();
    final AtomicLong subscriptionsRefused = new AtomicLong();
    final AtomicLong subscriptionsOpen = new AtomicLong();
    final AtomicLong eventsReceived = new AtomicLong();
    final AtomicLong eventsStored = new AtomicLong();
    final AtomicLong eventsEphemeral = new AtomicLong();
    final AtomicLong eventsBroadcast = new AtomicLong();
    final AtomicLong peerEvents = new AtomicLong();
    final AtomicLong broadcastsSuppressed = new AtomicLong();
    final AtomicLong liveDeliveries = new AtomicLong();
    final AtomicLong storedDeliveries = new AtomicLong();
    final AtomicLongArray eventsRejected = new AtomicLongArray(Prefix.values().length);
    final AtomicLong queries = new AtomicLong();
    final AtomicLong queriesTimedOut = new AtomicLong();
    final AtomicLong queryTimeNs = new AtomicLong();
    final AtomicLongArray queryTimeBuckets = new AtomicLongArray(QUERY_TIME_BOUNDS_NS.length + 1);
    final AtomicLong counts = new AtomicLong();
    final AtomicLong authAccepted = new AtomicLong();
    final AtomicLong authRejected = new AtomicLong();
    final AtomicLong notices = new AtomicLong();
    final AtomicLong internalErrors = new AtomicLong();

    static void inc(AtomicLong c) {
        c.lazySet(c.get() + 1);
    }

    static void add(AtomicLong c, long n) {
        c.lazySet(c.get() + n);
    }

    static void dec(AtomicLong c) {
        c.lazySet(c.get() - 1);
    }

    void rejected(Prefix reason) {
        eventsRejected.lazySet(reason.ordinal(), eventsRejected.get(reason.ordinal()) + 1);
    }

    void queryTime(long ns) {
        queryTimeNs.lazySet(queryTimeNs.get() + ns);
        int b = 0;
        while (b < QUERY_TIME_BOUNDS_NS.length && ns > QUERY_TIME_BOUNDS_NS[b]) {
            b++;
        }
        queryTimeBuckets.lazySet(b, queryTimeBuckets.get(b) + 1);
    }

    public long connectionsOpened() {
        return connectionsOpened.get();
    }

    /** Connections refused at open (per-IP limit). */
    public long connectionsRefused() {
        return connectionsRefused.get();
    }

    public long connectionsClosed() {
        return connectionsClosed.get();
    }

    public long slowReaderDisconnects() {
        return slowReaderDisconnects.get();
    }

    public long subscriptionsOpened() {
        return subscriptionsOpened.get();
    }

    /** REQs refused (limits, auth, rate). */
    public long subscriptionsRefused() {
        return subscriptionsRefused.get();
    }

    /** Subscriptions open now (a gauge). */
    public long subscriptionsOpen() {
        return subscriptionsOpen.get();
    }

    /** EVENT messages that parsed as events. */
    public long eventsReceived() {
        return eventsReceived.get();
    }

    /** Events committed to the store. */
    public long eventsStored() {
        return eventsStored.get();
    }

    /** Ephemeral events accepted (broadcast, not stored). */
    public long eventsEphemeral() {
        return eventsEphemeral.get();
    }

    /** Events fanned out to live subscribers (stored or ephemeral). */
    public long eventsBroadcast() {
        return eventsBroadcast.get();
    }

    /** Events handed in from other nodes of the fleet ({@link NostrEngine#onPeerEvent}). */
    public long peerEvents() {
        return peerEvents.get();
    }

    /** Events not broadcast because they had been already (a peer's echo, a repeat). */
    public long broadcastsSuppressed() {
        return broadcastsSuppressed.get();
    }

    /** EVENT messages sent to live subscriptions. */
    public long liveDeliveries() {
        return liveDeliveries.get();
    }

    /** EVENT messages sent from stored results. */
    public long storedDeliveries() {
        return storedDeliveries.get();
    }

    /** Events answered OK false, or OK true with {@code duplicate:}, by the answer's prefix. */
    public long eventsRejected(Prefix reason) {
        return eventsRejected.get(reason.ordinal());
    }

    /** REQs whose stored phase finished (EOSE sent). */
    public long queries() {
        return queries.get();
    }

    public long queriesTimedOut() {
        return queriesTimedOut.get();
    }

    /** Total time from REQ to EOSE, over {@link #queries()}. */
    public long queryTimeNs() {
        return queryTimeNs.get();
    }

    /** Queries per bucket of {@link #QUERY_TIME_BOUNDS_NS} (not cumulative; last bucket: slower). */
    public long[] queryTimeBuckets() {
        long[] out = new long[queryTimeBuckets.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = queryTimeBuckets.get(i);
        }
        return out;
    }

    /** COUNT requests answered. */
    public long counts() {
        return counts.get();
    }

    public long authAccepted() {
        return authAccepted.get();
    }

    public long authRejected() {
        return authRejected.get();
    }

    public long notices() {
        return notices.get();
    }

    /** Inputs that hit a bug (answered with {@code error:} and counted, never thrown to the adapter). */
    public long internalErrors() {
        return internalErrors.get();
    }
}
