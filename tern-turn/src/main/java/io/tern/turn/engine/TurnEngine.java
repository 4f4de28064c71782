package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
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
import io.tern.turn.allocation.Expiring;
import io.tern.turn.allocation.Permission;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.Credential;
import io.tern.turn.auth.NonceService;
import io.tern.turn.auth.UnauthenticatedRateLimiter;
import io.tern.turn.transaction.TransactionCache;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A TURN server (RFC 8656) over STUN (RFC 8489) as a sans-IO state machine. It owns no socket,
 * thread or clock: the transport hands it datagrams (or framed stream messages) with the current
 * time, and it answers through a {@link TurnEngineSink}. One engine serves one relay thread; the
 * engines of a server share only {@link TurnShared}.
 *
 * <p>Drive it with {@link #onClientPacket}, {@link #onPeerPacket} and {@link #onTimeout}, and call
 * {@link #onTimeout} again at {@link #nextDeadlineNs()}.
 */
public final class TurnEngine {
    /** Bytes of headroom callers of {@link #onPeerPacket} must leave before the data, for a ChannelData header. */
    public static final int PEER_PACKET_HEADROOM = ChannelDataFlyweight.HEADER_LENGTH;

    public static final int MAX_MESSAGE_BYTES = 65535 + StunHeaderFlyweight.HEADER_LENGTH;

    private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
    private static final int UDP_PROTOCOL_NUMBER = 17;
    private static final int MAX_USERNAME_BYTES = 513;
    private static final int ALGORITHM_MD5 = 0x0001;
    private static final int ALGORITHM_SHA256 = 0x0002;
    private static final long TICK_NS = 1L << 27;
    private static final int TICKS_PER_WHEEL = 1024;
    private static final int MAX_TICKS_PER_TIMEOUT = 1 << 20;
    /** Largest peer datagram that fits a Data indication: 16-bit body length less XOR-PEER-ADDRESS (v6), DATA and FINGERPRINT headers. */
    private static final int MAX_DATA_INDICATION_PAYLOAD_BYTES = 65535 - 24 - 4 - 8 - 3;

    private static final byte[] PASSWORD_ALGORITHMS_VALUE = {0, ALGORITHM_SHA256, 0, 0, 0, ALGORITHM_MD5, 0, 0};

    private final TurnEngineConfig config;
    private final TurnShared shared;
    private final RelaySockets relaySockets;
    private final TurnEngineSink sink;
    private final TurnCounters counters = new TurnCounters();

    private final StunMessageDecoder decoder = new StunMessageDecoder();
    private final ChannelDataFlyweight channelData = new ChannelDataFlyweight();
    private final MessageIntegrity integrity = new MessageIntegrity(MAX_MESSAGE_BYTES);
    private final Fingerprint fingerprint = new Fingerprint(MAX_MESSAGE_BYTES);
    private final StunVerifier verifier = new StunVerifier(fingerprint);
    private final StunMessageWriter writer = new StunMessageWriter(integrity, fingerprint);
    private final MutableDirectBuffer out = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_MESSAGE_BYTES + 64));
    private final UnsafeBuffer cachedResponse = new UnsafeBuffer(new byte[0]);
    private final NonceService nonces;
    private final UnauthenticatedRateLimiter unauthenticatedLimiter;
    private final TransactionCache transactions;
    private final AllocationTable allocations = new AllocationTable();
    private final DeadlineTimerWheel timers;
    private final Long2ObjectHashMap<Object> timerTargets = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerHandler timerHandler = this::onTimerExpiry;
    private final TransportProtocol[] listenerProtocols = new TransportProtocol[1 << 15];

    private final TransportAddress peer = new TransportAddress();
    private final TransportAddress relayCandidate = new TransportAddress();
    private final byte[] scratch16 = new byte[16];
    private final byte[] usernameBytes = new byte[MAX_USERNAME_BYTES];
    private final int[] refusedPorts = new int[16];
    private final byte[] tokenScratch = new byte[8];
    private final int[] unknownTypes = new int[StunMessageDecoder.MAX_UNKNOWN];
    private final TransportAddress[] permissionPeers = new TransportAddress[StunMessageDecoder.MAX_PEER_ADDRESSES];

    // State of the request being handled: set by authenticate(), read by the method handlers.
    private byte[] requestKey;
    private boolean requestUsedSha256Integrity;
    private boolean requestHadFingerprint;
    private Credential requestCredential;
    private long nowNs;

    public TurnEngine(
            TurnEngineConfig config, TurnShared shared, RelaySockets relaySockets, TurnEngineSink sink, long nowNs) {
        this.config = config;
        this.shared = shared;
        this.relaySockets = relaySockets;
        this.sink = sink;
        this.nowNs = nowNs;
        int features = NonceService.FEATURE_PASSWORD_ALGORITHMS
                | (shared.credentials().hasStaticUsers() ? NonceService.FEATURE_USERNAME_ANONYMITY : 0);
        this.nonces = new NonceService(shared.nonceKey(), shared.nonceLifetimeNs(), features);
        this.unauthenticatedLimiter =
                new UnauthenticatedRateLimiter(4096, config.unauthenticatedPerSecond(), config.unauthenticatedBurst());
        this.transactions = new TransactionCache(config.transactionCacheSize(), config.transactionLifetimeNs());
        this.timers = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, nowNs, TICK_NS, TICKS_PER_WHEEL);
        for (int i = 0; i < permissionPeers.length; i++) {
            permissionPeers[i] = new TransportAddress();
        }
    }

    /** Declares the transport of a listener id used in {@link #onClientPacket}. */
    public void registerListener(int listenerId, TransportProtocol protocol) {
        listenerProtocols[listenerId] = protocol;
    }

    public TurnCounters counters() {
        return counters;
    }

    public int allocationCount() {
        return allocations.size();
    }

    /** Read-only view of the allocation table, for tests and diagnostics. */
    public AllocationTable allocations() {
        return allocations;
    }

    /** When {@link #onTimeout} should next be called, or {@link Long#MAX_VALUE} when nothing is scheduled. */
    public long nextDeadlineNs() {
        return timers.timerCount() == 0 ? Long.MAX_VALUE : timers.currentTickTime();
    }

    // ---------------------------------------------------------------------------------------------
    // Input

    /**
     * A message from a client: one UDP datagram, or one framed STUN message or ChannelData on a
     * TCP/TLS connection ({@code connectionId} non-zero). {@code client} may be reused by the caller
     * after the call.
     */
    public void onClientPacket(
            int listenerId,
            long connectionId,
            TransportAddress client,
            MutableDirectBuffer buffer,
            int offset,
            int length,
            long nowNs) {
        this.nowNs = nowNs;
        if (ChannelDataFlyweight.isChannelData(buffer, offset, length)) {
            relayChannelDataFromClient(listenerId, connectionId, client, buffer, offset, length);
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
                requestHadFingerprint = false;
                sendError(listenerId, connectionId, client, ErrorCode.BAD_REQUEST);
            }
            return;
        }
        if (!verifier.fingerprintValid(decoder)) {
            counters.drop(DropReason.BAD_FINGERPRINT);
            return;
        }
        requestHadFingerprint = decoder.fingerprintAttributeOffset() >= 0;
        if (messageClass == StunClass.REQUEST) {
            handleRequest(listenerId, connectionId, client);
        } else if (messageClass == StunClass.INDICATION && decoder.method() == StunMethod.SEND) {
            handleSendIndication(listenerId, connectionId, client);
        } else {
            counters.drop(DropReason.UNEXPECTED_MESSAGE);
        }
    }

    /**
     * A datagram from a peer on relay socket {@code relayId}. The buffer must have
     * {@link #PEER_PACKET_HEADROOM} writable bytes before {@code offset}: a channel's header is
     * written there, so relayed data is never copied.
     */
    public void onPeerPacket(
            int relayId, TransportAddress from, MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        this.nowNs = nowNs;
        Allocation allocation = allocations.byRelayId(relayId);
        if (allocation == null) {
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
            int headerOffset = offset - ChannelDataFlyweight.HEADER_LENGTH;
            channelData
                    .wrap(buffer, headerOffset)
                    .channelNumber(channel.number())
                    .dataLength(length);
            sink.sendToClient(
                    allocation.listenerId(),
                    allocation.connectionId(),
                    allocation.client(),
                    buffer,
                    headerOffset,
                    length + ChannelDataFlyweight.HEADER_LENGTH);
        } else if (length > MAX_DATA_INDICATION_PAYLOAD_BYTES) {
            counters.drop(DropReason.MALFORMED);
            return;
        } else {
            writer.start(
                    out,
                    0,
                    StunClass.messageType(StunMethod.DATA, StunClass.INDICATION),
                    ThreadLocalRandom.current().nextInt(),
                    ThreadLocalRandom.current().nextLong());
            writer.putXorAddress(AttributeType.XOR_PEER_ADDRESS, from);
            writer.putBytes(AttributeType.DATA, buffer, offset, length);
            if (config.alwaysFingerprint()) {
                writer.putFingerprint();
            }
            sink.sendToClient(
                    allocation.listenerId(), allocation.connectionId(), allocation.client(), out, 0, writer.length());
        }
        counters.relayed(TurnCounters.DIRECTION_PEER_TO_CLIENT, allocation.protocol(), length);
    }

    /** A TCP or TLS connection went away: its allocation goes with it (RFC 8656 §3.1). */
    public void onConnectionClosed(int listenerId, long connectionId, TransportAddress client, long nowNs) {
        this.nowNs = nowNs;
        Allocation allocation = allocations.find(listenerId, connectionId, client);
        if (allocation != null) {
            deleteAllocation(allocation);
        }
    }

    /** Runs the expiry of allocations, permissions, channels and reservations due by {@code nowNs}. */
    public void onTimeout(long nowNs) {
        this.nowNs = nowNs;
        for (int i = 0; i < MAX_TICKS_PER_TIMEOUT && timers.currentTickTime() <= nowNs; i++) {
            if (timers.timerCount() == 0) {
                timers.resetStartTime(nowNs);
                break;
            }
            timers.poll(nowNs, timerHandler, Integer.MAX_VALUE);
        }
        RelayPortPool v4 = shared.portsV4();
        if (v4 != null && v4.reservations() > 0) {
            v4.expireReservations(nowNs);
        }
    }

    /** Deletes every allocation, closing its relay sockets; for shutdown. */
    public void close() {
        for (Allocation allocation : allocations.all()) {
            deleteAllocation(allocation);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Relay fast paths

    private void relayChannelDataFromClient(
            int listenerId,
            long connectionId,
            TransportAddress client,
            MutableDirectBuffer buffer,
            int offset,
            int length) {
        Allocation allocation = allocations.find(listenerId, connectionId, client);
        if (allocation == null) {
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
        sink.sendToPeer(channel.relayId(), channel.peer(), buffer, channelData.dataOffset(), dataLength);
        counters.relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, allocation.protocol(), dataLength);
    }

    private void handleSendIndication(int listenerId, long connectionId, TransportAddress client) {
        Allocation allocation = allocations.find(listenerId, connectionId, client);
        if (allocation == null) {
            counters.drop(DropReason.NO_ALLOCATION);
            return;
        }
        counters.request(StunMethod.SEND);
        int dataOffset = decoder.valueOffset(AttributeType.DATA);
        if (dataOffset < 0
                || decoder.peerAddressCount() == 0
                || decoder.unknownRequiredCount() > 0
                || !AddressAttribute.decodeXor(
                        decoder.buffer(),
                        decoder.offset(),
                        decoder.peerAddressOffset(0),
                        decoder.peerAddressLength(0),
                        peer,
                        scratch16)) {
            counters.drop(DropReason.MALFORMED);
            return;
        }
        int relayId = allocation.relayIdFor(peer);
        if (relayId < 0 || allocation.permission(peer) == null) {
            counters.drop(DropReason.NO_PERMISSION);
            return;
        }
        if (!shared.peerPolicy().permitsDestination(peer)) {
            counters.drop(DropReason.PEER_DENIED);
            return;
        }
        int dataLength = decoder.valueLength(AttributeType.DATA);
        sink.sendToPeer(relayId, peer, decoder.buffer(), dataOffset, dataLength);
        counters.relayed(TurnCounters.DIRECTION_CLIENT_TO_PEER, allocation.protocol(), dataLength);
    }

    // ---------------------------------------------------------------------------------------------
    // Requests

    private void handleRequest(int listenerId, long connectionId, TransportAddress client) {
        int method = decoder.method();
        counters.request(method);
        if (method == StunMethod.BINDING) {
            handleBinding(listenerId, connectionId, client);
            return;
        }
        if (method != StunMethod.ALLOCATE
                && method != StunMethod.REFRESH
                && method != StunMethod.CREATE_PERMISSION
                && method != StunMethod.CHANNEL_BIND) {
            sendError(listenerId, connectionId, client, ErrorCode.BAD_REQUEST);
            return;
        }
        long cacheKey = cacheKey(listenerId, connectionId, client);
        StunHeaderFlyweight header = decoder.header();
        int cached = transactions.find(cacheKey, header.transactionIdHigh(), header.transactionIdLow(), nowNs);
        if (cached >= 0) {
            cachedResponse.wrap(transactions.response(cached), 0, transactions.responseLength(cached));
            sink.sendToClient(listenerId, connectionId, client, cachedResponse, 0, transactions.responseLength(cached));
            return;
        }
        Allocation allocation = allocations.find(listenerId, connectionId, client);
        if (!authenticate(listenerId, connectionId, client, allocation)) {
            return;
        }
        if (decoder.unknownRequiredCount() > 0) {
            startUnknownAttributeError();
            finishSigned(listenerId, connectionId, client, cacheKey);
            return;
        }
        if (method == StunMethod.ALLOCATE) {
            handleAllocate(listenerId, connectionId, client, allocation, cacheKey);
            return;
        }
        if (allocation == null) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.ALLOCATION_MISMATCH);
            return;
        }
        switch (method) {
            case StunMethod.REFRESH -> handleRefresh(listenerId, connectionId, client, allocation, cacheKey);
            case StunMethod.CREATE_PERMISSION ->
                handleCreatePermission(listenerId, connectionId, client, allocation, cacheKey);
            default -> handleChannelBind(listenerId, connectionId, client, allocation, cacheKey);
        }
    }

    private static long cacheKey(int listenerId, long connectionId, TransportAddress client) {
        long key = AllocationTable.clientKey(listenerId, connectionId, client);
        return key != -1
                ? key
                : ((long) listenerId << 48)
                        ^ client.hashCode()
                        ^ ((long) java.util.Arrays.hashCode(client.ipv6Bytes()) << 20);
    }

    /** 420 listing the comprehension-required attributes this server doesn't know (RFC 8489 §6.3.1). */
    private void startUnknownAttributeError() {
        int count = decoder.unknownRequiredCount();
        for (int i = 0; i < count; i++) {
            unknownTypes[i] = decoder.unknownRequiredType(i);
        }
        counters.error(ErrorCode.UNKNOWN_ATTRIBUTE);
        startResponse(StunClass.ERROR_RESPONSE);
        writer.putErrorCode(ErrorCode.UNKNOWN_ATTRIBUTE);
        writer.putUnknownAttributes(unknownTypes, count);
    }

    private void handleBinding(int listenerId, long connectionId, TransportAddress client) {
        if (decoder.unknownRequiredCount() > 0) {
            startUnknownAttributeError();
            finishUnsigned(listenerId, connectionId, client);
            return;
        }
        startResponse(StunClass.SUCCESS_RESPONSE);
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, client);
        finishUnsigned(listenerId, connectionId, client);
    }

    /**
     * The long-term credential mechanism (RFC 8489 §9.2.4). Returns true with the request's key
     * set, or answers the request itself (400, 401, 438, 441) and returns false.
     */
    private boolean authenticate(int listenerId, long connectionId, TransportAddress client, Allocation allocation) {
        requestKey = null;
        requestCredential = null;
        int integrityOffset = decoder.integrityAttributeOffset();
        int sha256Offset = decoder.integritySha256AttributeOffset();
        // RFC 8489 §9.2.4: with both present, MESSAGE-INTEGRITY-SHA256 is the one that counts.
        requestUsedSha256Integrity = sha256Offset >= 0;
        if (integrityOffset < 0 && sha256Offset < 0) {
            challenge(listenerId, connectionId, client, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        boolean hasUsername = decoder.has(AttributeType.USERNAME) || decoder.has(AttributeType.USERHASH);
        if (!hasUsername || !decoder.has(AttributeType.REALM) || !decoder.has(AttributeType.NONCE)) {
            sendError(listenerId, connectionId, client, ErrorCode.BAD_REQUEST);
            return false;
        }
        int nonceOffset = decoder.valueOffset(AttributeType.NONCE);
        if (nonces.check(decoder.buffer(), nonceOffset, decoder.valueLength(AttributeType.NONCE), client, nowNs)
                != NonceService.VALID) {
            challenge(listenerId, connectionId, client, ErrorCode.STALE_NONCE);
            return false;
        }
        int algorithm = passwordAlgorithm();
        if (algorithm < 0) {
            sendError(listenerId, connectionId, client, ErrorCode.BAD_REQUEST);
            return false;
        }
        String username = username();
        if (username == null) {
            counters.authFailure();
            challenge(listenerId, connectionId, client, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        int attributeOffset = sha256Offset >= 0 ? sha256Offset : integrityOffset;
        // Looked up afresh on every request, so an expired REST username can't keep refreshing.
        List<Credential> candidates =
                shared.credentials().lookup(username, shared.epochSeconds().getAsLong());
        for (Credential candidate : candidates) {
            byte[] key = algorithm == ALGORITHM_SHA256 ? candidate.keySha256() : candidate.keyMd5();
            if (key != null && integrity.verify(decoder.buffer(), decoder.offset(), attributeOffset, key)) {
                requestKey = key;
                requestCredential = candidate;
                break;
            }
        }
        if (requestKey == null) {
            counters.authFailure();
            challenge(listenerId, connectionId, client, ErrorCode.UNAUTHENTICATED);
            return false;
        }
        if (allocation != null && !allocation.credential().username().equals(username)) {
            signedError(
                    listenerId,
                    connectionId,
                    client,
                    cacheKey(listenerId, connectionId, client),
                    ErrorCode.WRONG_CREDENTIALS);
            return false;
        }
        return true;
    }

    /**
     * The password algorithm the request uses: MD5 unless PASSWORD-ALGORITHM says SHA-256, and -1
     * (400) when PASSWORD-ALGORITHM names something this server didn't offer or PASSWORD-ALGORITHMS
     * doesn't echo the offer (a downgrade attempt, RFC 8489 §9.2.4).
     */
    private int passwordAlgorithm() {
        int chosenOffset = decoder.valueOffset(AttributeType.PASSWORD_ALGORITHM);
        int listOffset = decoder.valueOffset(AttributeType.PASSWORD_ALGORITHMS);
        if (chosenOffset < 0 && listOffset < 0) {
            return ALGORITHM_MD5;
        }
        if (chosenOffset < 0 || listOffset < 0 || decoder.valueLength(AttributeType.PASSWORD_ALGORITHM) < 4) {
            return -1;
        }
        int listLength = decoder.valueLength(AttributeType.PASSWORD_ALGORITHMS);
        if (listLength != PASSWORD_ALGORITHMS_VALUE.length) {
            return -1;
        }
        for (int i = 0; i < listLength; i++) {
            if (decoder.buffer().getByte(listOffset + i) != PASSWORD_ALGORITHMS_VALUE[i]) {
                return -1;
            }
        }
        int chosen = decoder.buffer().getShort(chosenOffset, ORDER) & 0xFFFF;
        return chosen == ALGORITHM_MD5 || chosen == ALGORITHM_SHA256 ? chosen : -1;
    }

    private String username() {
        int length = decoder.copyValue(AttributeType.USERNAME, usernameBytes);
        if (length >= 0) {
            return new String(usernameBytes, 0, length, StandardCharsets.UTF_8);
        }
        length = decoder.copyValue(AttributeType.USERHASH, usernameBytes);
        if (length == 32) {
            return shared.credentials().usernameForHash(usernameBytes, length);
        }
        return null;
    }

    /** 401 or 438 with REALM and a fresh NONCE, rate-limited per source against reflection. */
    private void challenge(int listenerId, long connectionId, TransportAddress client, int code) {
        counters.error(code);
        if (connectionId == TurnEngineSink.NO_CONNECTION && !unauthenticatedLimiter.tryAcquire(client, nowNs)) {
            counters.drop(DropReason.RATE_LIMITED);
            return;
        }
        startResponse(StunClass.ERROR_RESPONSE);
        writer.putErrorCode(code);
        writer.putBytes(AttributeType.REALM, shared.credentials().realm());
        writer.putBytes(AttributeType.NONCE, nonces.issue(client, nowNs));
        writer.putBytes(AttributeType.PASSWORD_ALGORITHMS, PASSWORD_ALGORITHMS_VALUE);
        finishUnsigned(listenerId, connectionId, client);
    }

    private void handleAllocate(
            int listenerId, long connectionId, TransportAddress client, Allocation existing, long cacheKey) {
        if (existing != null) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.ALLOCATION_MISMATCH);
            return;
        }
        if (decoder.valueLength(AttributeType.REQUESTED_TRANSPORT) != 4 || badLifetime()) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        int protocol = decoder.buffer().getByte(decoder.valueOffset(AttributeType.REQUESTED_TRANSPORT)) & 0xFF;
        if (protocol != UDP_PROTOCOL_NUMBER) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
            return;
        }
        boolean hasToken = decoder.has(AttributeType.RESERVATION_TOKEN);
        boolean hasEvenPort = decoder.has(AttributeType.EVEN_PORT);
        boolean hasFamily = decoder.has(AttributeType.REQUESTED_ADDRESS_FAMILY);
        boolean hasAdditional = decoder.has(AttributeType.ADDITIONAL_ADDRESS_FAMILY);
        if (hasToken && (hasEvenPort || hasFamily || hasAdditional) || hasFamily && hasAdditional) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        boolean wantV4 = true;
        boolean wantV6 = false;
        if (hasFamily) {
            int family = familyValue(AttributeType.REQUESTED_ADDRESS_FAMILY);
            if (family == AddressAttribute.WIRE_FAMILY_IPV6) {
                wantV4 = false;
                wantV6 = true;
            } else if (family != AddressAttribute.WIRE_FAMILY_IPV4) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
                return;
            }
        }
        if (hasAdditional
                && familyValue(AttributeType.ADDITIONAL_ADDRESS_FAMILY) != AddressAttribute.WIRE_FAMILY_IPV6) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        if (wantV4 && shared.portsV4() == null || wantV6 && shared.portsV6() == null) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED);
            return;
        }
        boolean evenPort = false;
        boolean reserveNext = false;
        if (hasEvenPort) {
            if (decoder.valueLength(AttributeType.EVEN_PORT) != 1) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
                return;
            }
            evenPort = true;
            reserveNext = (decoder.buffer().getByte(decoder.valueOffset(AttributeType.EVEN_PORT)) & 0x80) != 0;
        }
        if (shared.draining().get()) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        if (!shared.quota().tryAcquire(requestCredential.user())) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.ALLOCATION_QUOTA_REACHED);
            return;
        }
        Allocation allocation = new Allocation(
                listenerId,
                connectionId,
                client,
                protocolOf(listenerId),
                requestCredential,
                AllocationTable.clientKey(listenerId, connectionId, client));
        long token = 0;
        if (wantV4) {
            int port;
            if (hasToken) {
                if (decoder.valueLength(AttributeType.RESERVATION_TOKEN) != 8) {
                    shared.quota().release(requestCredential.user());
                    signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
                    return;
                }
                port = shared.portsV4()
                        .claim(
                                decoder.buffer().getLong(decoder.valueOffset(AttributeType.RESERVATION_TOKEN), ORDER),
                                nowNs);
                if (port < 0 || !openRelay(allocation, config.relayAddressV4(), port, true)) {
                    if (port >= 0) {
                        shared.portsV4().release(port);
                    }
                    shared.quota().release(requestCredential.user());
                    signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
                    return;
                }
            } else {
                port = bindFromPool(allocation, shared.portsV4(), config.relayAddressV4(), evenPort, reserveNext, true);
                if (port < 0) {
                    shared.quota().release(requestCredential.user());
                    signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
                    return;
                }
                if (reserveNext) {
                    token = ThreadLocalRandom.current().nextLong();
                    shared.portsV4().reserve(token, port + 1, nowNs + TurnEngineConfig.RESERVATION_LIFETIME_NS);
                }
            }
        }
        int addressErrorCode = 0;
        if (wantV6 || hasAdditional) {
            RelayPortPool v6 = shared.portsV6();
            int port = v6 == null
                    ? -1
                    : bindFromPool(allocation, v6, config.relayAddressV6(), evenPort && !wantV4, false, false);
            if (port < 0) {
                if (!wantV4) {
                    shared.quota().release(requestCredential.user());
                    releaseRelays(allocation);
                    signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
                    return;
                }
                addressErrorCode =
                        v6 == null ? ErrorCode.ADDRESS_FAMILY_NOT_SUPPORTED : ErrorCode.INSUFFICIENT_CAPACITY;
            }
        }
        long lifetimeNs = lifetimeNs(config.defaultLifetimeNs());
        allocations.add(allocation);
        if (allocation.relayIdV4() >= 0) {
            allocations.indexRelay(allocation.relayIdV4(), allocation);
        }
        if (allocation.relayIdV6() >= 0) {
            allocations.indexRelay(allocation.relayIdV6(), allocation);
        }
        schedule(allocation, lifetimeNs);
        counters.allocationOpened(allocation.protocol());

        startResponse(StunClass.SUCCESS_RESPONSE);
        if (allocation.relayIdV4() >= 0) {
            writer.putXorAddress(
                    AttributeType.XOR_RELAYED_ADDRESS,
                    advertised(allocation.relayedV4(), config.advertisedAddressV4()));
        }
        if (allocation.relayIdV6() >= 0) {
            writer.putXorAddress(
                    AttributeType.XOR_RELAYED_ADDRESS,
                    advertised(allocation.relayedV6(), config.advertisedAddressV6()));
        }
        if (addressErrorCode != 0) {
            putAddressErrorCode(AddressAttribute.WIRE_FAMILY_IPV6, addressErrorCode);
        }
        writer.putInt(AttributeType.LIFETIME, (int) TimeUnit.NANOSECONDS.toSeconds(lifetimeNs));
        if (token != 0) {
            writer.putBytes(AttributeType.RESERVATION_TOKEN, tokenBytes(token));
        }
        writer.putXorAddress(AttributeType.XOR_MAPPED_ADDRESS, client);
        finishSigned(listenerId, connectionId, client, cacheKey);
    }

    private byte[] tokenBytes(long token) {
        for (int i = 0; i < 8; i++) {
            tokenScratch[i] = (byte) (token >>> (56 - 8 * i));
        }
        return tokenScratch;
    }

    private void putAddressErrorCode(int family, int code) {
        byte[] reason = ErrorCode.reason(code);
        byte[] value = new byte[4 + reason.length];
        value[0] = (byte) family;
        value[2] = (byte) (code / 100);
        value[3] = (byte) (code % 100);
        System.arraycopy(reason, 0, value, 4, reason.length);
        writer.putBytes(AttributeType.ADDRESS_ERROR_CODE, value);
    }

    private int familyValue(int type) {
        if (decoder.valueLength(type) != 4) {
            return -1;
        }
        return decoder.buffer().getByte(decoder.valueOffset(type)) & 0xFF;
    }

    private TransportProtocol protocolOf(int listenerId) {
        TransportProtocol protocol = listenerProtocols[listenerId];
        return protocol == null ? TransportProtocol.UDP : protocol;
    }

    private static TransportAddress advertised(TransportAddress bound, TransportAddress external) {
        if (external == null) {
            return bound;
        }
        return external.copy().port(bound.port());
    }

    /** Binds a relay socket on a port from the pool, skipping ports another process holds. */
    private int bindFromPool(
            Allocation allocation,
            RelayPortPool pool,
            TransportAddress ip,
            boolean even,
            boolean reserveNext,
            boolean v4) {
        int attempts = Math.min(pool.size(), refusedPorts.length);
        for (int i = 0; i < attempts; i++) {
            // Ports refused earlier in this loop are skipped; otherwise the random start could pick them again.
            int port = pool.acquire(even, reserveNext, refusedPorts, i);
            if (port < 0) {
                return -1;
            }
            if (openRelay(allocation, ip, port, v4)) {
                return port;
            }
            refusedPorts[i] = port;
            pool.release(port);
            if (reserveNext) {
                pool.release(port + 1);
            }
        }
        return -1;
    }

    private boolean openRelay(Allocation allocation, TransportAddress ip, int port, boolean v4) {
        relayCandidate.set(ip).port(port);
        int relayId = relaySockets.open(relayCandidate);
        if (relayId < 0) {
            return false;
        }
        if (v4) {
            allocation.relayV4(relayId, relayCandidate);
        } else {
            allocation.relayV6(relayId, relayCandidate);
        }
        return true;
    }

    private void releaseRelays(Allocation allocation) {
        if (allocation.relayIdV4() >= 0) {
            relaySockets.close(allocation.relayIdV4());
            shared.portsV4().release(allocation.relayedV4().port());
            allocation.relayV4(-1, null);
        }
        if (allocation.relayIdV6() >= 0) {
            relaySockets.close(allocation.relayIdV6());
            shared.portsV6().release(allocation.relayedV6().port());
            allocation.relayV6(-1, null);
        }
    }

    /** RFC 8656 §7.2/§8: min(requested, max), but never below the default. */
    private long lifetimeNs(long defaultNs) {
        int requested = decoder.intValue(AttributeType.LIFETIME, -1);
        if (requested == -1 && !decoder.has(AttributeType.LIFETIME)) {
            return defaultNs;
        }
        long requestedNs = TimeUnit.SECONDS.toNanos(requested & 0xFFFF_FFFFL);
        return Math.max(config.defaultLifetimeNs(), Math.min(requestedNs, config.maxLifetimeNs()));
    }

    private boolean badLifetime() {
        return decoder.has(AttributeType.LIFETIME) && decoder.valueLength(AttributeType.LIFETIME) != 4;
    }

    private void handleRefresh(
            int listenerId, long connectionId, TransportAddress client, Allocation allocation, long cacheKey) {
        if (badLifetime()) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        if (decoder.has(AttributeType.REQUESTED_ADDRESS_FAMILY)) {
            int family = familyValue(AttributeType.REQUESTED_ADDRESS_FAMILY);
            boolean matches = family == AddressAttribute.WIRE_FAMILY_IPV4 && allocation.relayIdV4() >= 0
                    || family == AddressAttribute.WIRE_FAMILY_IPV6 && allocation.relayIdV6() >= 0;
            if (!matches) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
                return;
            }
        }
        boolean delete = decoder.has(AttributeType.LIFETIME) && decoder.intValue(AttributeType.LIFETIME, -1) == 0;
        long lifetimeNs = 0;
        if (delete) {
            deleteAllocation(allocation);
        } else {
            lifetimeNs = lifetimeNs(config.defaultLifetimeNs());
            timers.cancelTimer(allocation.timerId());
            timerTargets.remove(allocation.timerId());
            schedule(allocation, lifetimeNs);
        }
        startResponse(StunClass.SUCCESS_RESPONSE);
        writer.putInt(AttributeType.LIFETIME, (int) TimeUnit.NANOSECONDS.toSeconds(lifetimeNs));
        finishSigned(listenerId, connectionId, client, cacheKey);
    }

    private void handleCreatePermission(
            int listenerId, long connectionId, TransportAddress client, Allocation allocation, long cacheKey) {
        int count = decoder.peerAddressCount();
        if (count == 0 || count > StunMessageDecoder.MAX_PEER_ADDRESSES) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        int added = 0;
        for (int i = 0; i < count; i++) {
            TransportAddress candidate = permissionPeers[i];
            if (!AddressAttribute.decodeXor(
                    decoder.buffer(),
                    decoder.offset(),
                    decoder.peerAddressOffset(i),
                    decoder.peerAddressLength(i),
                    candidate,
                    scratch16)) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
                return;
            }
            if (allocation.relayIdFor(candidate) < 0) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
                return;
            }
            if (!shared.peerPolicy().permits(candidate)) {
                signedError(listenerId, connectionId, client, cacheKey, ErrorCode.FORBIDDEN);
                return;
            }
            if (allocation.permission(candidate) == null) {
                added++;
            }
        }
        if (allocation.permissionCount() + added > config.maxPermissions()) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        for (int i = 0; i < count; i++) {
            installPermission(allocation, permissionPeers[i]);
        }
        startResponse(StunClass.SUCCESS_RESPONSE);
        finishSigned(listenerId, connectionId, client, cacheKey);
    }

    private Permission installPermission(Allocation allocation, TransportAddress peerAddress) {
        Permission permission = allocation.permission(peerAddress);
        if (permission == null) {
            permission = allocation.addPermission(peerAddress);
        } else {
            timers.cancelTimer(permission.timerId());
            timerTargets.remove(permission.timerId());
        }
        permission.expiresAtNs(nowNs + config.permissionLifetimeNs());
        long timerId = timers.scheduleTimer(permission.expiresAtNs());
        permission.timerId(timerId);
        timerTargets.put(timerId, permission);
        return permission;
    }

    /** RFC 8656 §11.2, with the rebinding rules of §12.2. */
    private void handleChannelBind(
            int listenerId, long connectionId, TransportAddress client, Allocation allocation, long cacheKey) {
        int channelOffset = decoder.valueOffset(AttributeType.CHANNEL_NUMBER);
        if (channelOffset < 0
                || decoder.valueLength(AttributeType.CHANNEL_NUMBER) != 4
                || decoder.peerAddressCount() == 0) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        int number = decoder.buffer().getShort(channelOffset, ORDER) & 0xFFFF;
        if (number < ChannelDataFlyweight.MIN_CHANNEL
                || number > config.maxChannelNumber()
                || !AddressAttribute.decodeXor(
                        decoder.buffer(),
                        decoder.offset(),
                        decoder.peerAddressOffset(0),
                        decoder.peerAddressLength(0),
                        peer,
                        scratch16)) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        int relayId = allocation.relayIdFor(peer);
        if (relayId < 0) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
            return;
        }
        if (!shared.peerPolicy().permitsDestination(peer)) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.FORBIDDEN);
            return;
        }
        ChannelBinding byNumber = allocation.channel(number);
        ChannelBinding byPeer = allocation.channelForPeer(peer);
        if (byNumber != null && !byNumber.peer().equals(peer) || byPeer != null && byPeer.number() != number) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.BAD_REQUEST);
            return;
        }
        if (allocation.permission(peer) == null && allocation.permissionCount() >= config.maxPermissions()) {
            signedError(listenerId, connectionId, client, cacheKey, ErrorCode.INSUFFICIENT_CAPACITY);
            return;
        }
        ChannelBinding binding = byNumber;
        if (binding == null) {
            binding = allocation.addChannel(number, peer, relayId);
        } else {
            timers.cancelTimer(binding.timerId());
            timerTargets.remove(binding.timerId());
        }
        binding.active(true);
        binding.expiresAtNs(nowNs + config.channelLifetimeNs());
        long timerId = timers.scheduleTimer(binding.expiresAtNs());
        binding.timerId(timerId);
        timerTargets.put(timerId, binding);
        installPermission(allocation, peer);
        startResponse(StunClass.SUCCESS_RESPONSE);
        finishSigned(listenerId, connectionId, client, cacheKey);
    }

    // ---------------------------------------------------------------------------------------------
    // Expiry

    private void schedule(Allocation allocation, long lifetimeNs) {
        allocation.expiresAtNs(nowNs + lifetimeNs);
        long timerId = timers.scheduleTimer(allocation.expiresAtNs());
        allocation.timerId(timerId);
        timerTargets.put(timerId, allocation);
    }

    private boolean onTimerExpiry(TimeUnit unit, long now, long timerId) {
        Object target = timerTargets.remove(timerId);
        if (target instanceof Allocation allocation) {
            deleteAllocation(allocation);
        } else if (target instanceof Permission permission) {
            permission.owner().removePermission(permission);
        } else if (target instanceof ChannelBinding binding) {
            if (binding.active()) {
                binding.active(false);
                long cooldownId = timers.scheduleTimer(binding.expiresAtNs() + TurnEngineConfig.CHANNEL_COOLDOWN_NS);
                binding.timerId(cooldownId);
                timerTargets.put(cooldownId, binding);
            } else {
                binding.owner().removeChannel(binding);
            }
        }
        return true;
    }

    private void deleteAllocation(Allocation allocation) {
        timers.cancelTimer(allocation.timerId());
        timerTargets.remove(allocation.timerId());
        for (Expiring child : allocation.children()) {
            timers.cancelTimer(child.timerId());
            timerTargets.remove(child.timerId());
        }
        allocations.remove(allocation);
        releaseRelays(allocation);
        shared.quota().release(allocation.credential().user());
        counters.allocationClosed(allocation.protocol());
    }

    // ---------------------------------------------------------------------------------------------
    // Answers

    private void startResponse(int messageClass) {
        writer.startResponse(out, 0, StunClass.messageType(decoder.method(), messageClass), decoder.header());
        if (config.software() != null) {
            writer.putBytes(AttributeType.SOFTWARE, config.software());
        }
    }

    private void signedError(int listenerId, long connectionId, TransportAddress client, long cacheKey, int code) {
        counters.error(code);
        startResponse(StunClass.ERROR_RESPONSE);
        writer.putErrorCode(code);
        finishSigned(listenerId, connectionId, client, cacheKey);
    }

    /** An unsigned error; rate-limited like 401, since anyone can provoke it with a spoofed source. */
    private void sendError(int listenerId, long connectionId, TransportAddress client, int code) {
        counters.error(code);
        if (connectionId == TurnEngineSink.NO_CONNECTION && !unauthenticatedLimiter.tryAcquire(client, nowNs)) {
            counters.drop(DropReason.RATE_LIMITED);
            return;
        }
        startResponse(StunClass.ERROR_RESPONSE);
        writer.putErrorCode(code);
        finishUnsigned(listenerId, connectionId, client);
    }

    /** Signs with the request's key, remembers the answer for retransmissions, and sends it. */
    private void finishSigned(int listenerId, long connectionId, TransportAddress client, long cacheKey) {
        if (requestUsedSha256Integrity) {
            writer.putMessageIntegritySha256(requestKey);
        } else {
            writer.putMessageIntegrity(requestKey);
        }
        if (requestHadFingerprint || config.alwaysFingerprint()) {
            writer.putFingerprint();
        }
        StunHeaderFlyweight header = decoder.header();
        transactions.put(
                cacheKey, header.transactionIdHigh(), header.transactionIdLow(), out, 0, writer.length(), nowNs);
        sink.sendToClient(listenerId, connectionId, client, out, 0, writer.length());
    }

    private void finishUnsigned(int listenerId, long connectionId, TransportAddress client) {
        if (requestHadFingerprint || config.alwaysFingerprint()) {
            writer.putFingerprint();
        }
        sink.sendToClient(listenerId, connectionId, client, out, 0, writer.length());
    }
}
