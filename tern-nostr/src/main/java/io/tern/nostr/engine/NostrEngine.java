package io.tern.nostr.engine;

import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.Hex;
import io.tern.nostr.message.ClientMessage;
import io.tern.nostr.message.ClientMessageDecoder;
import io.tern.nostr.message.Prefix;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * A Nostr relay (NIP-01, 09, 11, 40, 42, 45) as a sans-IO engine: no sockets, threads or clocks.
 *
 * <p>Inputs are method calls with the caller's monotonic {@code nowNs}: {@link #onOpen},
 * {@link #onMessage} (one WebSocket text message), {@link #onClose}, {@link #onBacklog} (the
 * connection's unsent bytes), {@link #onStoreCompletion} (the store's answers) and
 * {@link #onTimeout} (at {@link #nextDeadlineNs()}). After each input the adapter drains
 * {@link #poll()} until it returns null. The wall clock (created_at checks, NIP-40) and the random
 * source (NIP-42 challenges) are injected. The engine calls only its {@link EventStore}, whose
 * completions come back later as inputs; it never calls the adapter.
 *
 * <p>One thread at a time: all inputs must come from the same thread (or be serialised).
 */
public final class NostrEngine {
    /** WebSocket close code for a connection cut off as a slow reader (policy violation). */
    public static final int CLOSE_SLOW_READER = 1008;

    private final NostrConfig config;
    private final RandomGenerator random;
    private final LongSupplier epochSeconds;
    private final EventStore store;
    private final NostrCounters counters = new NostrCounters();
    private final Outbox out = new Outbox(counters);
    private final Long2ObjectHashMap<Connection> connections = new Long2ObjectHashMap<>();
    private final io.tern.nostr.limit.ConnectionCounter perIp;
    private final ClientMessageDecoder decoder;
    private final Subscriptions subscriptions;
    private final EventIngest ingest;
    private long nextPurgeNs;

    /**
     * @param epochSeconds the wall clock in Unix seconds (created_at windows, NIP-40 expiry)
     * @param random source of NIP-42 challenges (a {@link java.security.SecureRandom} in production)
     * @param nowNs the monotonic clock now, from which the first expiry purge is scheduled
     */
    public NostrEngine(
            NostrConfig config,
            EventStore store,
            SchnorrVerifier verifier,
            LongSupplier epochSeconds,
            RandomGenerator random,
            long nowNs) {
        this.config = config;
        this.store = store;
        this.epochSeconds = epochSeconds;
        this.random = random;
        this.perIp = new io.tern.nostr.limit.ConnectionCounter(config.maxConnectionsPerIp());
        this.decoder = new ClientMessageDecoder(config.maxFilters(), config.maxSubscriptionIdLength());
        RequestIds ids = new RequestIds();
        // With NIP-40 off the store is asked about time -1, before any expiration: nothing expires.
        LongSupplier storeSeconds = config.nip40() ? epochSeconds : () -> -1L;
        this.subscriptions = new Subscriptions(config, store, out, counters, storeSeconds, ids);
        this.ingest = new EventIngest(config, store, verifier, out, counters, subscriptions, ids);
        this.nextPurgeNs = config.nip40() ? nowNs + config.purgeIntervalNs() : Long.MAX_VALUE;
    }

    public NostrConfig config() {
        return config;
    }

    public NostrCounters counters() {
        return counters;
    }

    public int connectionCount() {
        return connections.size();
    }

    /** The next output for the adapter, or null when there is none. */
    public NostrOutput poll() {
        return out.poll();
    }

    /** Outputs waiting to be polled. */
    public int pendingOutputs() {
        return out.size();
    }

    /**
     * A client connected (for WebSocket: its upgrade request arrived). Unless refused, the
     * connection is open and its NIP-42 challenge is queued.
     *
     * @param remoteIp the client's address, the key of the per-IP connection and rate limits
     * @param host the {@code Host} the client connected to ({@code host[:port]}), matched against
     *     an AUTH event's relay tag when no public URL is configured; may be null
     */
    public Admission onOpen(long connectionId, String remoteIp, String host, long nowNs) {
        if (connections.containsKey(connectionId)) {
            return Admission.DUPLICATE_ID;
        }
        if (!perIp.tryOpen(remoteIp)) {
            NostrCounters.inc(counters.connectionsRefused);
            return Admission.TOO_MANY_FROM_IP;
        }
        byte[] challenge = new byte[16];
        random.nextBytes(challenge);
        Connection c = new Connection(connectionId, remoteIp, host, Hex.encode(challenge));
        connections.put(connectionId, c);
        NostrCounters.inc(counters.connectionsOpened);
        out.authChallenge(c);
        return Admission.ACCEPTED;
    }

    /** One complete text message from the client, as UTF-8 (the WebSocket layer has validated it). */
    public void onMessage(long connectionId, byte[] utf8, int offset, int length, long nowNs) {
        Connection c = connections.get(connectionId);
        if (c == null) {
            return;
        }
        if (length > config.maxMessageBytes()) {
            out.notice(c, Prefix.INVALID.message("message too large (at most " + config.maxMessageBytes() + " bytes)"));
            return;
        }
        try {
            dispatch(c, decoder.decode(utf8, offset, length), nowNs);
        } catch (RuntimeException e) {
            // A bug must not take the relay down nor leak into other connections: answer and count it.
            NostrCounters.inc(counters.internalErrors);
            out.notice(c, Prefix.ERROR.message("internal error"));
        }
    }

    private void dispatch(Connection c, ClientMessage m, long nowNs) {
        switch (m) {
            case ClientMessage.EventMessage em -> ingest.onEvent(c, em.event(), nowNs, epochSeconds.getAsLong());
            case ClientMessage.Req req -> subscriptions.onReq(c, req, nowNs);
            case ClientMessage.Close close -> subscriptions.onClose(c, close.subscriptionId());
            case ClientMessage.Count count -> subscriptions.onCount(c, count, nowNs);
            case ClientMessage.Auth auth -> ingest.onAuth(c, auth.event(), nowNs, epochSeconds.getAsLong());
            case ClientMessage.Invalid invalid -> invalid(c, invalid);
        }
    }

    private void invalid(Connection c, ClientMessage.Invalid invalid) {
        switch (invalid.answer()) {
            case OK -> {
                counters.rejected(Prefix.INVALID);
                out.ok(c, invalid.ref(), false, invalid.reason());
            }
            case CLOSED -> {
                NostrCounters.inc(counters.subscriptionsRefused);
                out.closed(c, invalid.ref(), invalid.reason());
            }
            case NOTICE -> out.notice(c, invalid.reason());
        }
    }

    /** The client disconnected (or the adapter closed it); its subscriptions end. */
    public void onClose(long connectionId, long nowNs) {
        Connection c = connections.remove(connectionId);
        if (c != null) {
            forget(c);
        }
    }

    private void forget(Connection c) {
        c.open = false;
        subscriptions.forget(c);
        perIp.close(c.ip);
        NostrCounters.inc(counters.connectionsClosed);
    }

    /**
     * The adapter's report of a connection's unsent bytes (call it when they grow). Past
     * {@link NostrConfig#maxOutboundBytes()} the client is a slow reader: the engine forgets it and
     * queues a {@link NostrOutput.Disconnect}, rather than let its queue grow without bound.
     */
    public void onBacklog(long connectionId, long queuedBytes, long nowNs) {
        if (queuedBytes <= config.maxOutboundBytes()) {
            return;
        }
        Connection c = connections.remove(connectionId);
        if (c == null) {
            return;
        }
        forget(c);
        NostrCounters.inc(counters.slowReaderDisconnects);
        out.disconnect(
                connectionId,
                CLOSE_SLOW_READER,
                "slow reader: more than " + config.maxOutboundBytes() + " bytes waiting to be sent");
    }

    /** A completion from the store, delivered on the engine's thread. */
    public void onStoreCompletion(StoreCompletion completion, long nowNs) {
        switch (completion) {
            case StoreCompletion.Written w -> ingest.onWritten(w);
            case StoreCompletion.QueryBatch b -> subscriptions.onQueryBatch(b, nowNs);
            case StoreCompletion.Counted n -> subscriptions.onCounted(n);
            case StoreCompletion.Failed f -> subscriptions.onFailed(f);
        }
    }

    /**
     * An event another node of the fleet stored or published (the bus between the nodes hands it
     * in): it goes to the matching live subscriptions here, once each, and is not stored, verified
     * nor acknowledged again. The bus delivers each event once and never this node's own; an
     * event expired by NIP-40 is dropped.
     *
     * @return whether the event was broadcast (false: expired)
     */
    public boolean onPeerEvent(Event event, long nowNs) {
        if (config.nip40() && event.isExpiredAt(epochSeconds.getAsLong())) {
            return false;
        }
        subscriptions.broadcast(event);
        return true;
    }

    /** When {@link #onTimeout} should next be called; {@link Long#MAX_VALUE} for never. */
    public long nextDeadlineNs() {
        return Math.min(nextPurgeNs, subscriptions.nextDeadlineNs());
    }

    /** Runs what is due: query and count timeouts, the periodic purge of expired events. */
    public void onTimeout(long nowNs) {
        subscriptions.onTimeout(nowNs);
        if (nowNs >= nextPurgeNs) {
            store.purgeExpired(epochSeconds.getAsLong());
            nextPurgeNs = nowNs + config.purgeIntervalNs();
        }
    }

    /** Writes waiting for the store, queries and counts running (for tests and metrics). */
    public int pendingStoreRequests() {
        return ingest.pendingWrites() + subscriptions.pendingQueries();
    }

    /** Filters in the live fan-out index (for tests and metrics). */
    public int liveFilters() {
        return subscriptions.liveFilters();
    }
}
