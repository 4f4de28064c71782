package io.tern.nostr.engine;

import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.limit.RateLimiter;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * EVENT and AUTH: the checks in order of cost (authentication, rate limits, policy, then the id
 * hash and the signature), then the store; the OK for a stored event waits for its commit, and
 * only a committed (or ephemeral) event is broadcast. Owns the table of writes in flight.
 */
final class EventIngest {
    private final NostrConfig config;
    private final EventStore store;
    private final SchnorrVerifier verifier;
    private final Outbox out;
    private final NostrCounters counters;
    private final Subscriptions subscriptions;
    private final RequestIds requestIds;
    private final EventPolicy policy;
    private final EventHasher hasher = new EventHasher();
    private final RateLimiter eventsPerIp;
    private final RateLimiter eventsPerPubkey;
    private final Long2ObjectHashMap<PendingWrite> writes = new Long2ObjectHashMap<>();

    private record PendingWrite(Connection connection, Event event) {}

    EventIngest(
            NostrConfig config,
            EventStore store,
            SchnorrVerifier verifier,
            Outbox out,
            NostrCounters counters,
            Subscriptions subscriptions,
            RequestIds requestIds) {
        this.config = config;
        this.store = store;
        this.verifier = verifier;
        this.out = out;
        this.counters = counters;
        this.subscriptions = subscriptions;
        this.requestIds = requestIds;
        this.policy = new EventPolicy(config);
        this.eventsPerIp =
                new RateLimiter(config.eventsPerSecondPerIp(), config.eventBurstPerIp(), config.rateLimitKeys());
        this.eventsPerPubkey = new RateLimiter(
                config.eventsPerSecondPerPubkey(), config.eventBurstPerPubkey(), config.rateLimitKeys());
    }

    void onEvent(Connection c, Event e, long nowNs, long nowSeconds) {
        NostrCounters.inc(counters.eventsReceived);
        String refusal = refusal(c, e, nowNs, nowSeconds);
        if (refusal != null) {
            answer(c, e.id(), false, refusal);
            return;
        }
        if (e.kindClass() == KindClass.EPHEMERAL) {
            NostrCounters.inc(counters.eventsEphemeral);
            out.ok(c, e.id(), true, "");
            subscriptions.broadcast(e);
            store.ephemeral(e);
            return;
        }
        long requestId = requestIds.next();
        writes.put(requestId, new PendingWrite(c, e));
        store.write(requestId, e);
    }

    /** Why {@code e} is refused (with its prefix), or null once it is verified and acceptable. */
    private String refusal(Connection c, Event e, long nowNs, long nowSeconds) {
        if (config.authMode().requiredToWrite() && !c.isAuthenticated()) {
            return Prefix.AUTH_REQUIRED.message("this relay only accepts events from authenticated clients (NIP-42)");
        }
        if (!eventsPerIp.tryAcquire(c.ip, nowNs)) {
            return Prefix.RATE_LIMITED.message("too many events from your address, slow down");
        }
        if (!eventsPerPubkey.tryAcquire(e.pubkey(), nowNs)) {
            return Prefix.RATE_LIMITED.message("too many events from this pubkey, slow down");
        }
        String problem = policy.problem(e, nowSeconds);
        return problem != null ? problem : verification(e);
    }

    private String verification(Event e) {
        if (!hasher.idMatches(e)) {
            return Prefix.INVALID.message("event id does not match the event's hash");
        }
        if (!verifier.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes())) {
            return Prefix.INVALID.message("signature does not verify");
        }
        return null;
    }

    void onAuth(Connection c, Event e, long nowNs, long nowSeconds) {
        String refusal = eventsPerIp.tryAcquire(c.ip, nowNs) ? null : Prefix.RATE_LIMITED.message("slow down");
        if (refusal == null) {
            refusal = verification(e);
        }
        if (refusal == null) {
            refusal = AuthCheck.problem(e, c, config.publicUrl(), nowSeconds, config.authWindowSeconds());
        }
        if (refusal != null) {
            NostrCounters.inc(counters.authRejected);
            out.ok(c, e.id(), false, refusal);
            return;
        }
        c.authenticate(e.pubkey());
        NostrCounters.inc(counters.authAccepted);
        out.ok(c, e.id(), true, "");
    }

    void onWritten(StoreCompletion.Written w) {
        PendingWrite p = writes.remove(w.requestId());
        if (p == null) {
            return;
        }
        Connection c = p.connection();
        Event e = p.event();
        switch (w.outcome()) {
            case STORED -> {
                NostrCounters.inc(counters.eventsStored);
                if (c.open) {
                    out.ok(c, e.id(), true, "");
                }
                subscriptions.broadcast(e);
            }
            case DUPLICATE -> answer(c, e.id(), true, Prefix.DUPLICATE.message("already have this event"));
            case SUPERSEDED -> answer(c, e.id(), true, Prefix.DUPLICATE.message("a newer version is stored"));
            case DELETED -> answer(c, e.id(), false, Prefix.BLOCKED.message("this event was deleted by its author"));
            case ERROR -> answer(c, e.id(), false, Prefix.ERROR.message("could not store the event"));
        }
    }

    private void answer(Connection c, String eventId, boolean accepted, String message) {
        Prefix p = Prefix.of(message);
        if (p != null) {
            counters.rejected(p);
        }
        if (c.open) {
            out.ok(c, eventId, accepted, message);
        }
    }

    int pendingWrites() {
        return writes.size();
    }
}
