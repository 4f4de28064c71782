package io.tern.netty.nostr;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import io.tern.netty.loop.EngineLoop;
import io.tern.netty.loop.LoopClock;
import io.tern.netty.websocket.WebSocketConnection;
import io.tern.netty.websocket.WebSocketEndpoint;
import io.tern.netty.websocket.WebSocketRequest;
import io.tern.nostr.crypto.SchnorrVerifier;
import io.tern.nostr.engine.Admission;
import io.tern.nostr.engine.CheckedMessage;
import io.tern.nostr.engine.MessageChecker;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.engine.NostrCounters;
import io.tern.nostr.engine.NostrEngine;
import io.tern.nostr.engine.NostrOutput;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventParser;
import io.tern.nostr.event.ParsedEvent;
import io.tern.nostr.store.EventStore;
import io.tern.nostr.store.StoreCompletion;
import io.tern.nostr.store.StoreCompletionSink;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The Nostr relay on Tern's WebSocket adapter: one {@link NostrEngine} for every connection, on
 * one event loop (the engine's), so subscriptions, rate limits and per-IP counts are relay-wide
 * and the engine takes no locks. Serve it on a port of its own ({@link NostrServer}) or on an HTTP
 * server's path ({@link NostrRoutes}); both use {@link #endpoint()}.
 *
 * <p>The adapter does I/O only. After every input (a message, an open or close, a store
 * completion, an event from the fleet's bus ({@link #onPeerEvent}), the timer) its {@link EngineLoop} drains {@link NostrEngine#poll()} until it is empty
 * and re-arms the one timer from {@link NostrEngine#nextDeadlineNs()}. A connection on the engine's own loop is driven
 * directly, its message handed to the engine in the WebSocket engine's buffer; a connection on
 * another loop (an HTTP server with several threads, or {@code --threads} above 1) has each
 * message decoded and its event's id and signature checked on its own loop ({@link
 * MessageChecker}, the costly part of an EVENT), and the checked message handed over as a task, so
 * the engine's thread only routes; its sends of one drain go back as one task per loop. An event broadcast to many subscribers is copied once into direct memory and every
 * subscriber's frame carries a slice of it ({@link WebSocketConnection#send(boolean, byte[],
 * ByteBuf, byte[])}); a message for one subscriber is copied once, into its frame.
 */
public final class NostrRelay implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern.nostr");
    /** WebSocket close code for a binary message: the relay takes text only (RFC 6455 §7.4.1). */
    static final int CLOSE_UNSUPPORTED_DATA = 1003;

    /** Opens the relay's store with the sink its completions go to. */
    @FunctionalInterface
    public interface StoreOpener {
        EventStore open(StoreCompletionSink sink) throws Exception;
    }

    private final NostrConfig config;
    private final EventLoop loop;
    private final NostrEngine engine;
    private final EventStore store;
    private final StoreAgentThreads storeAgents;
    private final WebSocketEndpoint endpoint;
    private final NostrRelayInformationResponses information;
    /** The open connections the engine knows, by id; the engine's loop only. */
    private final Long2ObjectHashMap<NostrConnection> connections = new Long2ObjectHashMap<>();
    /** Sends of the current drain for connections on other loops. */
    private final Map<EventLoop, List<RemoteSend>> remote = new IdentityHashMap<>();

    private final EngineLoop engineLoop;
    /** The decoder and signature check of each connection loop other than the engine's. */
    private final FastThreadLocal<MessageChecker> checkers;

    /** Where the ephemeral events this node accepts go for the other nodes; nowhere on a node alone. */
    private volatile Consumer<Event> fleetBus = event -> {};

    private volatile boolean closed;
    private final AtomicLong malformedPeerEvents = new AtomicLong();

    private record RemoteSend(NostrConnection target, byte[] head, ByteBuf body, byte[] tail) {}

    private NostrRelay(
            NostrConfig config,
            EventLoop loop,
            StoreOpener opener,
            SchnorrVerifier verifier,
            LongSupplier epochSeconds,
            String version)
            throws Exception {
        this.config = config;
        this.loop = loop;
        this.store = opener.open(this::onCompletion);
        this.storeAgents = new StoreAgentThreads(store.agents());
        // Built off the loop, so the loop's ticker is read directly, not through its per-turn clock.
        this.engine = new NostrEngine(
                config,
                verifier,
                epochSeconds,
                new SecureRandom(),
                loop.ticker().nanoTime());
        this.engineLoop = new EngineLoop(new LoopClock(loop), new EngineLoop.Driver() {
            @Override
            public long drainOutputs() {
                return drainEngine();
            }

            @Override
            public void onTimeout(long nowNs) {
                engine.onTimeout(nowNs);
            }
        });
        this.checkers = new FastThreadLocal<>() {
            @Override
            protected MessageChecker initialValue() {
                return new MessageChecker(config, verifier);
            }
        };
        this.information = new NostrRelayInformationResponses(config, version);
        this.endpoint = new WebSocketEndpoint(NostrWebSocketConfig.of(config), new NostrAcceptor(this));
    }

    /**
     * Opens the store and builds the relay; its engine runs on {@code loop}.
     *
     * @param epochSeconds the wall clock in Unix seconds (created_at windows, NIP-40)
     * @param version the software version NIP-11 states
     */
    public static NostrRelay open(
            NostrConfig config,
            EventLoop loop,
            StoreOpener store,
            SchnorrVerifier verifier,
            LongSupplier epochSeconds,
            String version)
            throws Exception {
        return new NostrRelay(config, loop, store, verifier, epochSeconds, version);
    }

    /** The WebSocket endpoint serving the relay: a port's acceptor, or an HTTP route's upgrade handler. */
    public WebSocketEndpoint endpoint() {
        return endpoint;
    }

    public NostrConfig config() {
        return config;
    }

    /** The engine's counters, readable from any thread. */
    public NostrCounters counters() {
        return engine.counters();
    }

    /** The store, for its own counters. */
    public EventStore store() {
        return store;
    }

    /** The loop the engine runs on. */
    public EventLoop loop() {
        return loop;
    }

    NostrRelayInformationResponses information() {
        return information;
    }

    /** Connections open now, as the engine counts them. */
    public long openConnections() {
        NostrCounters c = engine.counters();
        return c.connectionsOpened() - c.connectionsClosed();
    }

    // ---------------------------------------------------------------- inputs, on the engine's loop

    /** A WebSocket connection opened (its handshake completed). */
    void onOpen(NostrConnection connection) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> onOpen(connection));
            return;
        }
        WebSocketRequest request = connection.connection().request();
        String ip = request.remoteAddress() == null
                ? "unknown"
                : request.remoteAddress().getAddress().getHostAddress();
        Admission admission = engine.onOpen(connection.id(), ip, request.host(), nowNs());
        if (admission == Admission.ACCEPTED) {
            connections.put(connection.id(), connection);
        } else {
            connection.closeOnItsLoop(NostrEngine.CLOSE_SLOW_READER, "too many connections from your address");
        }
        drain();
    }

    /** A text message of a connection on the engine's loop; {@code utf8} is valid during the call only. */
    void onMessage(NostrConnection connection, byte[] utf8, int offset, int length) {
        engine.onMessage(connection.id(), utf8, offset, length, nowNs());
        drain();
    }

    /** The calling connection loop's checker (not the engine's loop: it checks in the engine). */
    MessageChecker checker() {
        return checkers.get();
    }

    /** A message checked on its connection's loop; on the engine's loop. */
    void onMessage(NostrConnection connection, CheckedMessage message) {
        engine.onMessage(connection.id(), message, nowNs());
        drain();
    }

    void onClose(NostrConnection connection) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> onClose(connection));
            return;
        }
        if (connections.remove(connection.id()) != null) {
            engine.onClose(connection.id(), nowNs());
            drain();
        }
    }

    /** What a connection has queued unsent, reported after sends that left it above the relay's cap. */
    void onBacklog(NostrConnection connection, long queuedBytes) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> onBacklog(connection, queuedBytes));
            return;
        }
        engine.onBacklog(connection.id(), queuedBytes, nowNs());
        drain();
    }

    /**
     * From any thread (the fleet's bus): an event another node stored or published, for the live
     * subscriptions here ({@link NostrEngine#onPeerEvent}); repeats are dropped by the engine.
     */
    public void onPeerEvent(Event event) {
        if (closed) {
            return;
        }
        try {
            loop.execute(() -> {
                engine.onPeerEvent(event, nowNs());
                drain();
            });
        } catch (RejectedExecutionException stopping) {
            // The loop is shutting down; its subscribers are going too.
        }
    }

    /**
     * {@link #onPeerEvent(Event)} from the event's wire JSON (what {@code PostgresEventBus}'s
     * {@code ForeignEvent} carries), parsed on the calling thread, not the engine's. A malformed
     * one is dropped and logged: the node that accepted it had checked it.
     */
    public void onPeerEventJson(byte[] json) {
        ParsedEvent parsed = EventParser.parseWire(json);
        if (parsed.isValid()) {
            onPeerEvent(parsed.event());
        } else {
            malformedPeerEvents.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "dropped a malformed event from the fleet's bus: " + parsed.error());
        }
    }

    /** Events from the fleet's bus that did not parse (a node of another version): dropped, counted. */
    public long malformedPeerEvents() {
        return malformedPeerEvents.get();
    }

    /**
     * Joins a fleet: the ephemeral events this node accepts ({@link NostrOutput.Publish}) go to
     * {@code publishEphemeral}, called on the engine's loop, which must return at once (queue them).
     * Events stored here reach the other nodes through the shared store, not through this.
     */
    public void publishTo(Consumer<Event> publishEphemeral) {
        this.fleetBus = publishEphemeral;
    }

    /** On a store thread: hands the completion to the engine's loop. */
    private void onCompletion(StoreCompletion completion) {
        if (closed) {
            return;
        }
        try {
            loop.execute(() -> {
                engine.onStoreCompletion(completion, nowNs());
                drain();
            });
        } catch (RejectedExecutionException stopping) {
            // The loop is shutting down; the connections waiting for this answer are going too.
        }
    }

    // ---------------------------------------------------------------- outputs

    /** After an input: drains the engine and re-arms the timer. */
    private void drain() {
        engineLoop.drain();
    }

    /**
     * Drains the engine until it is empty. An input that arrives while draining (a connection that
     * closed because of a send) is given to the engine at once, whose outputs this loop then
     * drains too.
     */
    private long drainEngine() {
        for (NostrOutput output = engine.poll(); output != null; output = engine.poll()) {
            switch (output) {
                case NostrOutput.Send send -> send(send);
                case NostrOutput.Broadcast broadcast -> broadcast(broadcast);
                case NostrOutput.Disconnect disconnect -> disconnect(disconnect);
                case NostrOutput.Publish publish -> fleetBus.accept(publish.event());
                case NostrOutput.StoreRequest request -> request.carryOut(store);
            }
        }
        sendRemote();
        return engine.nextDeadlineNs();
    }

    /** A message for one connection: its body wrapped, which the frame copies. */
    private void send(NostrOutput.Send send) {
        byte[] bytes = send.body();
        sendTo(
                send.connectionId(),
                send.head(),
                bytes.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes),
                send.tail());
    }

    /**
     * An event for many subscribers: copied once into direct memory, which every frame of the
     * broadcast shares (a slice each), released after the last send is queued.
     */
    private void broadcast(NostrOutput.Broadcast broadcast) {
        byte[] bytes = broadcast.body();
        ByteBuf body = broadcast.recipients() > 1
                ? ByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes)
                : Unpooled.wrappedBuffer(bytes);
        try {
            long[] ids = broadcast.connectionIds();
            byte[][] heads = broadcast.heads();
            for (int i = 0; i < ids.length; i++) {
                sendTo(ids[i], heads[i], body, broadcast.tail());
            }
        } finally {
            body.release();
        }
    }

    private void sendTo(long connectionId, byte[] head, ByteBuf body, byte[] tail) {
        NostrConnection target = connections.get(connectionId);
        if (target == null) {
            return;
        }
        if (target.loop() == loop) {
            target.send(head, body, tail);
        } else {
            remote.computeIfAbsent(target.loop(), l -> new ArrayList<>())
                    .add(new RemoteSend(target, head, body.retain(), tail));
        }
    }

    private void disconnect(NostrOutput.Disconnect disconnect) {
        NostrConnection target = connections.remove(disconnect.connectionId());
        if (target != null) {
            target.closeOnItsLoop(disconnect.closeCode(), disconnect.reason());
        }
    }

    /** One task per other loop carries that loop's sends of this drain. */
    private void sendRemote() {
        if (remote.isEmpty()) {
            return;
        }
        for (Map.Entry<EventLoop, List<RemoteSend>> batch : remote.entrySet()) {
            List<RemoteSend> sends = batch.getValue();
            batch.getKey().execute(() -> {
                for (RemoteSend send : sends) {
                    try {
                        send.target().send(send.head(), send.body(), send.tail());
                    } finally {
                        send.body().release();
                    }
                }
            });
        }
        remote.clear();
    }

    private long nowNs() {
        return engineLoop.nowNs();
    }

    /**
     * Stops the timer and closes the store (its agents finish the writes already submitted first). Close
     * the listeners and connections before: the engine is not told about connections still open.
     */
    @Override
    public void close() {
        closed = true;
        if (loop.isShuttingDown()) {
            closeStore();
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        loop.execute(() -> {
            engineLoop.close();
            stopped.countDown();
        });
        try {
            if (!stopped.await(5, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "the relay's loop did not stop its timer in 5 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeStore();
    }

    /** Stops the store's agents (after the writes already submitted) and closes it. */
    private void closeStore() {
        storeAgents.close();
        store.close();
    }
}
