package io.tern.nostr.engine;

import io.tern.nostr.event.Event;
import io.tern.nostr.event.SerializedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.limit.RateLimiter;
import io.tern.nostr.live.LiveIndex;
import io.tern.nostr.message.ClientMessage;
import io.tern.nostr.message.NostrMessages;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.store.StoreCompletion;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * REQ, CLOSE and COUNT: each subscription's stored phase (a store query, answered in batches,
 * ended by EOSE or by its timeout) and its live phase (the {@link LiveIndex}), which starts at
 * once so nothing committed while the query runs is missed. Owns the query and count tables.
 */
final class Subscriptions {
    private final NostrConfig config;
    private final Outbox out;
    private final NostrCounters counters;
    private final LongSupplier storeSeconds;
    private final RequestIds requestIds;
    private final RateLimiter reqsPerIp;
    private final LiveIndex<Subscription> live = new LiveIndex<>();
    private final Long2ObjectHashMap<Subscription> queries = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<PendingCount> counts = new Long2ObjectHashMap<>();
    /** Query and count timeouts, in deadline order (every one is now + the same timeout). */
    private final ArrayDeque<long[]> timeouts = new ArrayDeque<>();

    private final List<Subscription> matched = new ArrayList<>();
    /** Events already broadcast, so that one reaching the engine again goes out once. */
    private final RecentIds broadcastIds;

    private record PendingCount(Connection connection, String subscriptionId) {}

    /**
     * @param storeSeconds the wall clock as the store should see it for NIP-40 (-1 when NIP-40 is
     *     off, so that nothing counts as expired)
     */
    Subscriptions(
            NostrConfig config, Outbox out, NostrCounters counters, LongSupplier storeSeconds, RequestIds requestIds) {
        this.config = config;
        this.out = out;
        this.counters = counters;
        this.storeSeconds = storeSeconds;
        this.requestIds = requestIds;
        this.broadcastIds = new RecentIds(config.recentBroadcasts());
        this.reqsPerIp = new RateLimiter(config.reqsPerSecondPerIp(), config.reqBurstPerIp(), config.rateLimitKeys());
    }

    void onReq(Connection c, ClientMessage.Req req, long nowNs) {
        String id = req.subscriptionId();
        remove(c, id);
        String refusal = refusal(c, nowNs);
        if (refusal != null) {
            NostrCounters.inc(counters.subscriptionsRefused);
            out.closed(c, id, refusal);
            return;
        }
        List<Filter> filters = new ArrayList<>(req.filters().size());
        List<Filter> stored = new ArrayList<>(req.filters().size());
        for (Filter f : req.filters()) {
            int limit = f.limit() == Filter.NO_LIMIT ? config.defaultLimit() : Math.min(f.limit(), config.maxLimit());
            Filter clamped = f.withLimit(limit);
            filters.add(clamped);
            if (limit > 0 && !clamped.isEmpty()) {
                stored.add(clamped);
            }
        }
        Subscription s = new Subscription(c, id, filters, NostrMessages.eventHead(out.writer(), id), nowNs);
        c.subscriptions.put(id, s);
        live.add(s, filters);
        NostrCounters.inc(counters.subscriptionsOpened);
        NostrCounters.inc(counters.subscriptionsOpen);
        if (stored.isEmpty()) {
            endStoredPhase(s, nowNs);
            return;
        }
        long requestId = requestIds.next();
        s.startQuery(requestId);
        queries.put(requestId, s);
        timeouts.addLast(new long[] {nowNs + config.queryTimeoutNs(), requestId});
        out.storeQuery(requestId, List.copyOf(stored), storeSeconds.getAsLong());
    }

    void onCount(Connection c, ClientMessage.Count count, long nowNs) {
        String id = count.subscriptionId();
        if (!config.nip45()) {
            out.closed(c, id, Prefix.INVALID.message("COUNT (NIP-45) is not enabled on this relay"));
            return;
        }
        cancelCount(c, id);
        String refusal = refusal(c, nowNs);
        if (refusal != null) {
            out.closed(c, id, refusal);
            return;
        }
        List<Filter> filters =
                count.filters().stream().filter(f -> !f.isEmpty()).toList();
        if (filters.isEmpty()) {
            NostrCounters.inc(counters.counts);
            out.count(c, id, 0);
            return;
        }
        long requestId = requestIds.next();
        c.counts.put(id, requestId);
        counts.put(requestId, new PendingCount(c, id));
        timeouts.addLast(new long[] {nowNs + config.queryTimeoutNs(), requestId});
        out.storeCount(requestId, filters, storeSeconds.getAsLong());
    }

    /** Why a REQ or COUNT is refused now (with its prefix), or null. */
    private String refusal(Connection c, long nowNs) {
        if (config.authMode().requiredToRead() && !c.isAuthenticated()) {
            return Prefix.AUTH_REQUIRED.message("this relay only serves authenticated clients (NIP-42)");
        }
        if (c.subscriptions.size() + c.counts.size() >= config.maxSubscriptions()) {
            return Prefix.BLOCKED.message("too many open subscriptions (at most " + config.maxSubscriptions() + ")");
        }
        if (!reqsPerIp.tryAcquire(c.ip, nowNs)) {
            return Prefix.RATE_LIMITED.message("too many subscriptions opened, slow down");
        }
        return null;
    }

    void onClose(Connection c, String subscriptionId) {
        remove(c, subscriptionId);
        cancelCount(c, subscriptionId);
    }

    /** Ends a subscription of {@code c} if there is one by that id; nothing is sent. */
    private void remove(Connection c, String subscriptionId) {
        Subscription s = c.subscriptions.remove(subscriptionId);
        if (s == null) {
            return;
        }
        live.remove(s);
        if (s.querying()) {
            queries.remove(s.queryRequestId);
            out.storeCancel(s.queryRequestId);
            s.endQuery();
        }
        NostrCounters.dec(counters.subscriptionsOpen);
    }

    private void cancelCount(Connection c, String subscriptionId) {
        Long requestId = c.counts.remove(subscriptionId);
        if (requestId != null) {
            counts.remove(requestId.longValue());
            out.storeCancel(requestId);
        }
    }

    /** Forgets every subscription and count of a connection that is gone. */
    void forget(Connection c) {
        for (String id : List.copyOf(c.subscriptions.keySet())) {
            remove(c, id);
        }
        for (String id : List.copyOf(c.counts.keySet())) {
            cancelCount(c, id);
        }
    }

    void onQueryBatch(StoreCompletion.QueryBatch batch, long nowNs) {
        Subscription s = queries.get(batch.requestId());
        if (s == null) {
            return;
        }
        for (SerializedEvent e : batch.events()) {
            if (s.sentDuringQuery.add(e.id())) {
                out.event(s, e);
                NostrCounters.inc(counters.storedDeliveries);
            }
        }
        if (batch.done()) {
            queries.remove(batch.requestId());
            endStoredPhase(s, nowNs);
        }
    }

    void onCounted(StoreCompletion.Counted counted) {
        PendingCount p = counts.remove(counted.requestId());
        if (p == null) {
            return;
        }
        p.connection().counts.remove(p.subscriptionId());
        NostrCounters.inc(counters.counts);
        out.count(p.connection(), p.subscriptionId(), counted.count());
    }

    void onFailed(StoreCompletion.Failed failed) {
        String message = Prefix.ERROR.message("the query failed");
        Subscription s = queries.get(failed.requestId());
        if (s != null) {
            remove(s.connection, s.id);
            out.closed(s.connection, s.id, message);
            return;
        }
        PendingCount p = counts.remove(failed.requestId());
        if (p != null) {
            p.connection().counts.remove(p.subscriptionId());
            out.closed(p.connection(), p.subscriptionId(), message);
        }
    }

    private void endStoredPhase(Subscription s, long nowNs) {
        s.endQuery();
        out.eose(s.connection, s.id);
        NostrCounters.inc(counters.queries);
        counters.queryTime(nowNs - s.startedNs);
    }

    /**
     * Sends a new event to every live subscription it matches, once each; an event broadcast
     * among the last {@link NostrConfig#recentBroadcasts()} is not sent again. Returns false for such a
     * repeat.
     */
    boolean broadcast(Event e) {
        if (!broadcastIds.add(e.idBytes())) {
            NostrCounters.inc(counters.broadcastsSuppressed);
            return false;
        }
        matched.clear();
        live.match(e, matched);
        int recipients = 0;
        for (int i = 0; i < matched.size(); i++) {
            Subscription s = matched.get(i);
            if (!s.querying() || s.sentDuringQuery.add(e.id())) {
                matched.set(recipients++, s);
            }
        }
        if (recipients > 0) {
            out.broadcast(matched, recipients, e);
            NostrCounters.add(counters.liveDeliveries, recipients);
        }
        matched.clear();
        NostrCounters.inc(counters.eventsBroadcast);
        return true;
    }

    long nextDeadlineNs() {
        // Entries of requests that finished stay queued until they reach the head; drop them there,
        // so the head is always the earliest deadline still pending.
        long[] head;
        while ((head = timeouts.peekFirst()) != null && !queries.containsKey(head[1]) && !counts.containsKey(head[1])) {
            timeouts.pollFirst();
        }
        return head == null ? Long.MAX_VALUE : head[0];
    }

    /** Cuts short the stored phases and counts whose time is up. */
    void onTimeout(long nowNs) {
        long[] head;
        while ((head = timeouts.peekFirst()) != null && head[0] <= nowNs) {
            timeouts.pollFirst();
            long requestId = head[1];
            Subscription s = queries.remove(requestId);
            if (s != null) {
                out.storeCancel(requestId);
                NostrCounters.inc(counters.queriesTimedOut);
                // Fewer stored events than asked for is allowed (NIP-01); the subscription stays live.
                endStoredPhase(s, nowNs);
                continue;
            }
            PendingCount p = counts.remove(requestId);
            if (p != null) {
                out.storeCancel(requestId);
                p.connection().counts.remove(p.subscriptionId());
                out.closed(p.connection(), p.subscriptionId(), Prefix.ERROR.message("the count took too long"));
            }
        }
    }

    /** Filters in the live index, over all connections (for tests and metrics). */
    int liveFilters() {
        return live.filters();
    }

    int pendingQueries() {
        return queries.size() + counts.size();
    }
}
