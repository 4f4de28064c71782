package io.tern.nostr.engine;

import io.tern.nostr.filter.Filter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One REQ of one connection: its filters, live from the start, and its stored phase until EOSE. */
final class Subscription {
    final Connection connection;
    final String id;
    final List<Filter> filters;
    /** {@code ["EVENT","<id>",}, written once and shared by every event sent to this subscription. */
    final byte[] eventHead;

    final long startedNs;

    /** The store request of the stored phase, or 0 once EOSE is sent. */
    long queryRequestId;
    /**
     * Ids sent during the stored phase, from either side: a live event committed while the query
     * runs may also come back from it, and must go out only once. Dropped at EOSE.
     */
    Set<String> sentDuringQuery;
    /** The broadcast sequence number of the last live event delivered, so a match counts once. */
    long lastDeliveredSeq;

    Subscription(Connection connection, String id, List<Filter> filters, byte[] eventHead, long startedNs) {
        this.connection = connection;
        this.id = id;
        this.filters = filters;
        this.eventHead = eventHead;
        this.startedNs = startedNs;
    }

    boolean querying() {
        return queryRequestId != 0;
    }

    void startQuery(long requestId) {
        queryRequestId = requestId;
        sentDuringQuery = new HashSet<>();
    }

    void endQuery() {
        queryRequestId = 0;
        sentDuringQuery = null;
    }
}
