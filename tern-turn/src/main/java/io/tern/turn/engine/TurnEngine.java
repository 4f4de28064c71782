package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.channel.ChannelDataFlyweight;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.integrity.StunVerifier;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunHeaderFlyweight;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.allocation.Allocation;
import io.tern.turn.allocation.AllocationTable;
import io.tern.turn.allocation.ChannelBinding;
import io.tern.turn.allocation.PeerConnection;
import io.tern.turn.allocation.Permission;
import io.tern.turn.auth.Authenticator;
import io.tern.turn.auth.NonceService;
import io.tern.turn.auth.UnauthenticatedRateLimiter;
import io.tern.turn.method.AllocateHandler;
import io.tern.turn.method.BindingHandler;
import io.tern.turn.method.ChannelBindHandler;
import io.tern.turn.method.ConnectHandler;
import io.tern.turn.method.ConnectionBindHandler;
import io.tern.turn.method.CreatePermissionHandler;
import io.tern.turn.method.RefreshHandler;
import io.tern.turn.method.SendHandler;
import io.tern.turn.quota.LeaseDecision;
import io.tern.turn.timer.Expiring;
import io.tern.turn.timer.TimerWheel;
import io.tern.turn.transaction.TransactionCache;
import java.time.InstantSource;
import java.util.random.RandomGenerator;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A TURN server (RFC 8656, RFC 6062) over STUN (RFC 8489) as a sans-IO state machine, and the
 * router of its messages. It owns no socket, thread or clock: the transport hands it inputs with
 * the current time, then drains the commands it queued with {@link #poll()}, and arms its timer
 * for {@link #nextDeadlineNs()}. It never calls back into the transport.
 *
 * <ul>
 *   <li>Inputs: {@link #onClientMessage}, {@link #onPeerDatagram}, {@link #onClientConnectionClosed},
 *       {@link #onRelayOpened}, {@link #onPeerConnected}, {@link #onPeerConnectionAccepted},
 *       {@link #onPeerConnectionClosed}, {@link #onLeaseDecided}, {@link #onTimeout}.
 *   <li>Outputs: {@link Command}s (send to a client or a peer, open or close a relay socket,
 *       connect to a peer, bind a data connection, acquire or release a fleet-wide lease).
 * </ul>
 *
 * <p>ChannelData is recognised before any STUN decoding and relayed in place. Requests are
 * authenticated by the {@link Authenticator} and handled by one handler per method. One engine
 * serves one relay thread; the engines of a server share only {@link TurnShared}.
 */
public final class TurnEngine {
    /** Bytes of headroom callers of {@link #onPeerDatagram} must leave before the data, for a ChannelData header. */
    public static final int PEER_PACKET_HEADROOM = ChannelDataFlyweight.HEADER_LENGTH;

    public static final int MAX_MESSAGE_BYTES = 65535 + StunHeaderFlyweight.HEADER_LENGTH;

    /** Largest peer datagram that fits a Data indication: 16-bit body length less XOR-PEER-ADDRESS (v6), DATA and FINGERPRINT headers. */
    private static final int MAX_DATA_INDICATION_PAYLOAD_BYTES = 65535 - 24 - 4 - 8 - 3;

    /** A tick of the timer wheel is 2^26 ns (67 ms); 2048 slots span 137 s. */
    private static final int TIMER_TICK_SHIFT = 26;

    private static final int TIMER_SLOTS = 2048;
    private static final int ARENA_BYTES = 4 * MAX_MESSAGE_BYTES;

    private final TurnEngineConfig config;
    private final TurnCounters counters = new TurnCounters();
    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final ChannelDataFlyweight channelData = new ChannelDataFlyweight();
    private final StunVerifier verifier;
    private final CommandQueue commands = new CommandQueue(ARENA_BYTES);
    private final TransactionCache transactions;
    private final EngineState state;
    private final RequestContext request;
    private final Authenticator authenticator;
    private final BindingHandler binding = new BindingHandler();
    private final AllocateHandler allocate;
    private final RefreshHandler refresh;
    private final CreatePermissionHandler createPermission;
    private final ChannelBindHandler channelBind;
    private final SendHandler send;
    private final ConnectHandler connect;
    private final ConnectionBindHandler connectionBind;
    private final TimerWheel.Handler timerHandler = this::onTimerExpiry;
    private final TransportProtocol[] listenerProtocols = new TransportProtocol[1 << 15];
    private final UnsafeBuffer cachedView = new UnsafeBuffer(new byte[0]);

    /**
     * @param wallClock used only to check the expiry in TURN REST usernames
     * @param random    transaction IDs of indications, CONNECTION-IDs, reservation tokens
     * @param nowNs     the engine's time now, on the clock every later input will use
     */
    public TurnEngine(
            TurnEngineConfig config, TurnShared shared, InstantSource wallClock, RandomGenerator random, long nowNs) {
        this(config, shared, wallClock, random, nowNs, 0, 1);
    }

    /**
     * One engine of several, each on its own relay thread: {@code shard} of {@code shards}. A
     * ConnectionBind that reaches the wrong one is handed on ({@link Command#MIGRATE_CONNECTION}).
     */
    public TurnEngine(
            TurnEngineConfig config,
            TurnShared shared,
            InstantSource wallClock,
            RandomGenerator random,
            long nowNs,
            int shard,
            int shards) {
        if (shard < 0 || shard >= shards || shards > 256) {
            throw new IllegalArgumentException("shard " + shard + " of " + shards);
        }
        this.config = config;
        MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
        Fingerprint fingerprint = new Fingerprint(MAX_MESSAGE_BYTES);
        this.verifier = new StunVerifier(fingerprint);
        this.transactions = new TransactionCache(config.transactionCacheSize(), config.transactionLifetimeNs());
        Responder responder = new Responder(
                new StunMessageWriter(integrity, fingerprint),
                commands,
                transactions,
                config.software(),
                config.alwaysFingerprint());
        TimerWheel timers = new TimerWheel(nowNs, TIMER_TICK_SHIFT, TIMER_SLOTS);
        this.state = new EngineState(config, shared, counters, commands, responder, timers, random, shard, shards);
        UnauthenticatedRateLimiter limiter =
                new UnauthenticatedRateLimiter(4096, config.unauthenticatedPerSecond(), config.unauthenticatedBurst());
        this.request = new RequestContext(decoder, responder, counters, limiter);
        int features = NonceService.FEATURE_PASSWORD_ALGORITHMS
                | (shared.credentials().hasStaticUsers() ? NonceService.FEATURE_USERNAME_ANONYMITY : 0);
        this.authenticator = new Authenticator(
                shared.credentials(),
                new NonceService(shared.nonceKey(), shared.nonceLifetimeNs(), features),
                integrity,
                wallClock,
                counters);
        this.allocate = new AllocateHandler(state);
        this.refresh = new RefreshHandler(state);
        this.createPermission = new CreatePermissionHandler(state);
        this.channelBind = new ChannelBindHandler(state);
        this.send = new SendHandler(state);
        this.connect = new ConnectHandler(state);
        this.connectionBind = new ConnectionBindHandler(state);
    }

    /** Declares the transport of a listener id used in {@link #onClientMessage}. */
    public void registerListener(int listenerId, TransportProtocol protocol) {
        listenerProtocols[listenerId] = protocol;
    }

    public TurnCounters counters() {
        return counters;
    }

    public int allocationCount() {
        return state.allocations.size();
    }

    /** Read-only view of the allocation table, for tests and diagnostics. */
    public AllocationTable allocations() {
        return state.allocations;
    }

    /** Peer TCP connections (RFC 6062) open or being opened, for tests and diagnostics. */
    public int peerConnectionCount() {
        return state.peerConnections.size();
    }

    /** Whether a TCP/TLS client connection carries an allocation or a bound peer connection: it is never idle then. */
    public boolean holdsConnection(long connectionId) {
        return state.allocations.byConnection(connectionId) != null
                || state.peerConnections.byDataConnection(connectionId) != null;
    }

    /**
     * When {@link #onTimeout} should next be called, or {@link Long#MAX_VALUE} when nothing is
     * scheduled. It may be early (the earliest timer was cancelled since), never late.
     */
    public long nextDeadlineNs() {
        return state.timers.nextDeadlineNs();
    }

    /** The next output, or null once every output of the inputs so far has been taken. */
    public Command poll() {
        return commands.poll();
    }

    // ---------------------------------------------------------------------------------------------
    // Input

    /**
     * A message from a client: one UDP datagram, or one framed STUN message or ChannelData on a
     * TCP/TLS connection. Outputs that relay its bytes refer to {@code buffer} ({@link Command#inPlace()}),
     * so the buffer must stay valid until they have been drained.
     */
    public void onClientMessage(ClientEndpoint from, MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        if (ChannelDataFlyweight.isChannelData(buffer, offset, length)) {
            relayChannelData(from, buffer, offset, length);
            return;
        }
        int result = decoder.decode(buffer, offset, length);
        if (result == StunMessageDecoder.NOT_STUN) {
            counters.drop(DropReason.NOT_STUN);
            return;
        }
        int messageClass = decoder.messageClass();
        if (result == StunMessageDecoder.MALFORMED) {
            counters.drop(DropReason.MALFORMED);
            if (messageClass == StunClass.REQUEST) {
                request.begin(from, protocolOf(from), 0, null, nowNs).unsignedError(ErrorCode.BAD_REQUEST);
            }
            return;
        }
        if (!verifier.fingerprintValid(decoder)) {
            counters.drop(DropReason.BAD_FINGERPRINT);
            return;
        }
        if (messageClass == StunClass.REQUEST) {
            route(from, nowNs);
        } else if (messageClass == StunClass.INDICATION && decoder.method() == StunMethod.SEND) {
            Allocation allocation = state.allocations.find(from.listenerId(), from.connectionId(), from.address());
            send.handle(request.begin(from, protocolOf(from), 0, allocation, nowNs));
        } else {
            counters.drop(DropReason.UNEXPECTED_MESSAGE);
        }
    }

    /**
     * A datagram from a peer on relay socket {@code relayId}. The buffer must have
     * {@link #PEER_PACKET_HEADROOM} writable bytes before {@code offset}: a channel's header is
     * written there, so relayed data is never copied, and must stay valid until drained.
     */
    public void onPeerDatagram(
            int relayId, TransportAddress from, MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        Allocation allocation = state.allocations.byRelayId(relayId);
        if (allocation == null || allocation.isOpening()) {
            counters.drop(DropReason.NO_ALLOCATION);
            return;
        }
        Permission permission = allocation.permission(from);
        if (permission == null) {
            counters.drop(DropReason.NO_PERMISSION);
            return;
        }
        ChannelBinding channel = allocation.channelForPeer(from);
        if (channel != null && channel.active()) {
            // RFC 8656 §12.6: ChannelData, its header written into the headroom; length 0 is fine.
            int headerOffset = offset - ChannelDataFlyweight.HEADER_LENGTH;
            channelData
                    .wrap(buffer, headerOffset)
                    .channelNumber(channel.number())
                    .dataLength(length);
            commands.sendToClient(
                    allocation.endpoint(), buffer, headerOffset, length + ChannelDataFlyweight.HEADER_LENGTH, true);
        } else if (length > MAX_DATA_INDICATION_PAYLOAD_BYTES) {
            counters.drop(DropReason.MALFORMED);
            return;
        } else {
            // RFC 8656 §11.5: a Data indication, its DATA possibly empty.
            StunMessageWriter writer = state.responder.start(
                    StunMethod.DATA, StunClass.INDICATION, state.random.nextInt(), state.random.nextLong());
            writer.putXorAddress(AttributeType.XOR_PEER_ADDRESS, from);
            writer.putBytes(AttributeType.DATA, buffer, offset, length);
            state.responder.finishUnsigned(allocation.endpoint(), false);
        }
        counters.relayed(TurnCounters.DIRECTION_PEER_TO_CLIENT, allocation.protocol(), length);
    }

    /** A TCP or TLS client connection went away: its allocation goes with it (RFC 8656 §3.1), or its peer connection (RFC 6062). */
    public void onClientConnectionClosed(long connectionId, long nowNs) {
        Allocation allocation = state.allocations.byConnection(connectionId);
        if (allocation != null) {
            state.deleteAllocation(allocation);
            return;
        }
        PeerConnection bound = state.peerConnections.byDataConnection(connectionId);
        if (bound != null) {
            state.closePeerConnection(bound);
        }
    }

    /** The transport's answer to {@link Command#OPEN_RELAY}: the socket is bound, or its port was taken. */
    public void onRelayOpened(int relayId, boolean bound, long nowNs) {
        Allocation allocation = state.allocations.byRelayId(relayId);
        if (allocation != null) {
            allocate.onRelayOpened(allocation, relayId, bound, nowNs);
        } else if (bound) {
            // The allocation went while the socket was being opened.
            commands.closeRelay(relayId);
        }
    }

    /**
     * The transport's answer to {@link Command#ACQUIRE_LEASE}. A lease whose allocation is gone
     * (its release already queued) is ignored.
     */
    public void onLeaseDecided(long leaseId, LeaseDecision decision, long nowNs) {
        Allocation allocation = state.undecidedLeases.remove(leaseId);
        if (allocation != null) {
            allocate.onLeaseDecided(allocation, decision, nowNs);
        }
    }

    /** The transport's answer to {@link Command#CONNECT_PEER}. */
    public void onPeerConnected(int relayId, boolean connected, long nowNs) {
        PeerConnection connection = state.peerConnections.byRelayId(relayId);
        if (connection != null) {
            connect.onPeerConnected(connection, connected, nowNs);
        } else if (connected) {
            commands.closeRelay(relayId);
        }
    }

    /**
     * A peer opened a TCP connection to the relay listener {@code listenerRelayId} of a TCP
     * allocation (RFC 6062 §5.3). Returns the relay id to keep the connection under (the
     * transport must not read from it until it is bound), or -1: close it.
     */
    public int onPeerConnectionAccepted(int listenerRelayId, TransportAddress from, long nowNs) {
        return connect.onPeerConnectionAccepted(listenerRelayId, from, nowNs);
    }

    /** A peer TCP connection closed or failed; the transport has closed its bound data connection. */
    public void onPeerConnectionClosed(int relayId, long nowNs) {
        PeerConnection connection = state.peerConnections.byRelayId(relayId);
        if (connection != null) {
            connect.onPeerConnectionClosed(connection, nowNs);
        }
    }

    /** Runs every expiry due by {@code nowNs}: allocations, permissions, channels, reservations, peer connections. */
    public void onTimeout(long nowNs) {
        state.timers.poll(nowNs, timerHandler);
    }

    /** Deletes every allocation, queueing the close of its sockets; for shutdown. */
    public void close() {
        for (Allocation allocation : state.allocations.all()) {
            state.deleteAllocation(allocation);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Routing

    /** RFC 8656 §12.5: ChannelData from a client goes to the channel's peer, in place; length 0 included. */
    private void relayChannelData(ClientEndpoint from, MutableDirectBuffer buffer, int offset, int length) {
        Allocation allocation = state.allocations.find(from.listenerId(), from.connectionId(), from.address());
        if (allocation == null || allocation.isOpening()) {
            counters.drop(DropReason.NO_ALLOCATION);
            return;
        }
        channelData.wrap(buffer, offset);
        int dataLength = channelData.dataLength();
        ChannelBinding channel = allocation.channel(channelData.channelNumber());
        if (channel == null || !channel.active()) {
            counters.drop(DropReason.NO_CHANNEL);
            return;
        }
        if (dataLength > length - ChannelDataFlyweight.HEADER_LENGTH) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        if (allocation.permission(channel.peer()) == null) {
            counters.drop(DropReason.NO_PERMISSION);
            return;
        }
        commands.sendToPeer(channel.relayId(), channel.peer(), buffer, channelData.dataOffset(), dataLength, true);
        counters.relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, allocation.protocol(), dataLength);
    }

    /** A request: retransmissions answered from the cache, then authentication, then its method's handler. */
    private void route(ClientEndpoint from, long nowNs) {
        int method = decoder.method();
        counters.request(method);
        TransportProtocol protocol = protocolOf(from);
        if (method == StunMethod.BINDING) {
            binding.handle(request.begin(from, protocol, 0, null, nowNs));
            return;
        }
        if (!isTurnMethod(method)) {
            request.begin(from, protocol, 0, null, nowNs).unsignedError(ErrorCode.BAD_REQUEST);
            return;
        }
        long cacheKey = cacheKey(from);
        StunHeaderFlyweight header = decoder.header();
        int slot = transactions.find(cacheKey, header.transactionIdHigh(), header.transactionIdLow(), nowNs);
        if (slot >= 0) {
            // RFC 8489 §6.3.1: a retransmission gets the same answer, not a second processing.
            int length = transactions.responseLength(slot);
            int at = commands.reserve(length);
            cachedView.wrap(transactions.response(slot));
            commands.arena().putBytes(at, cachedView, 0, length);
            commands.sendToClient(from, length);
            return;
        }
        Allocation allocation = state.allocations.find(from.listenerId(), from.connectionId(), from.address());
        if (allocation != null && allocation.isOpening()) {
            if (method == StunMethod.ALLOCATE
                    && allocation.opening().answer.answers(header.transactionIdHigh(), header.transactionIdLow())) {
                // A retransmitted Allocate whose relay is still being opened: the answer is coming.
                return;
            }
            if (method != StunMethod.ALLOCATE) {
                allocation = null;
            }
        }
        request.begin(from, protocol, cacheKey, allocation, nowNs);
        if (!authenticator.authenticate(request)) {
            return;
        }
        if (decoder.unknownRequiredCount() > 0) {
            request.unknownAttributes();
            return;
        }
        switch (method) {
            case StunMethod.ALLOCATE -> allocate.handle(request);
            case StunMethod.CONNECTION_BIND -> connectionBind.handle(request);
            default -> {
                if (allocation == null) {
                    request.signedError(ErrorCode.ALLOCATION_MISMATCH);
                    return;
                }
                switch (method) {
                    case StunMethod.REFRESH -> refresh.handle(request);
                    case StunMethod.CREATE_PERMISSION -> createPermission.handle(request);
                    case StunMethod.CHANNEL_BIND -> channelBind.handle(request);
                    default -> connect.handle(request);
                }
            }
        }
    }

    private static boolean isTurnMethod(int method) {
        return method == StunMethod.ALLOCATE
                || method == StunMethod.REFRESH
                || method == StunMethod.CREATE_PERMISSION
                || method == StunMethod.CHANNEL_BIND
                || method == StunMethod.CONNECT
                || method == StunMethod.CONNECTION_BIND;
    }

    private static long cacheKey(ClientEndpoint from) {
        TransportAddress client = from.address();
        long key = AllocationTable.clientKey(from.listenerId(), from.connectionId(), client);
        return key != -1
                ? key
                : ((long) from.listenerId() << 48)
                        ^ client.hashCode()
                        ^ ((long) java.util.Arrays.hashCode(client.ipv6Bytes()) << 20);
    }

    private TransportProtocol protocolOf(ClientEndpoint from) {
        TransportProtocol protocol = listenerProtocols[from.listenerId()];
        return protocol == null ? TransportProtocol.UDP : protocol;
    }

    // ---------------------------------------------------------------------------------------------
    // Expiry

    private void onTimerExpiry(Expiring timer, long nowNs) {
        if (timer instanceof Allocation allocation) {
            state.deleteAllocation(allocation);
        } else if (timer instanceof Permission permission) {
            permission.owner().removePermission(permission);
        } else if (timer instanceof ChannelBinding binding) {
            binding.owner().channelTimerExpired(binding, state.timers);
        } else if (timer instanceof PeerConnection connection) {
            connect.onTimeout(connection, nowNs);
        } else if (timer instanceof Reservation) {
            state.state().expireReservations(nowNs);
        }
    }
}
