package io.tern.bench.jmh;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.RelaySockets;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnEngineSink;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A real {@link TurnEngine} in memory, with one allocation, permission and channel set up through
 * real signed requests (401 challenge, Allocate, CreatePermission, ChannelBind), as a client would.
 * No sockets, no threads, a fixed clock. It keeps the signed requests it sent, for the codec
 * benchmarks.
 */
final class EngineHarness {
    static final String REALM = "tern.bench";
    static final String USER = "alice";
    static final String PASSWORD = "alice-secret";
    /** The TURN REST shared secret, and the expiry its usernames carry (far in the future). */
    static final String REST_SECRET = "rest-secret-for-benchmarks";

    static final String REST_USER = "4102444800:" + USER;
    static final int UDP_LISTENER = 0;
    static final int CHANNEL = 0x4000;
    static final TransportAddress RELAY = TransportAddress.parse("192.0.2.1", 0);
    static final TransportAddress LISTENER = TransportAddress.parse("192.0.2.1", 3478);
    static final TransportAddress CLIENT = TransportAddress.parse("198.51.100.10", 40000);
    static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    /** Fixed engine time: nothing expires during a benchmark. */
    static final long NOW_NS = TimeUnit.SECONDS.toNanos(1000);

    private static final int MAX = TurnEngine.MAX_MESSAGE_BYTES;

    final CountingSink sink = new CountingSink();
    final FakeRelaySockets relays = new FakeRelaySockets();
    final TurnEngine engine;
    final String username;
    final byte[] key;

    /** The signed requests this harness sent, byte for byte. */
    byte[] signedAllocate;

    byte[] signedCreatePermission;
    byte[] signedChannelBind;
    int relayId = -1;

    private final StunMessageWriter writer = new StunMessageWriter(new MessageIntegrity(MAX), new Fingerprint(MAX));
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MAX]);
    private final StunMessageDecoder responses = new StunMessageDecoder();
    private byte[] realm;
    private byte[] nonce;
    private long tid;

    /** A static user ({@link #USER}) and the default transaction cache. */
    EngineHarness() {
        this(false, TurnEngineConfig.builder());
    }

    /**
     * @param restCredentials sign as a TURN REST user ({@link #REST_USER}, password derived from
     *                        {@link #REST_SECRET}) instead of the static user
     * @param config          engine settings; the relay address and SOFTWARE are set here
     */
    EngineHarness(boolean restCredentials, TurnEngineConfig.Builder config) {
        username = restCredentials ? REST_USER : USER;
        String password = restCredentials ? CredentialStore.restPassword(utf8(REST_SECRET), utf8(REST_USER)) : PASSWORD;
        key = MessageIntegrity.longTermKeyMd5(utf8(username), utf8(REALM), utf8(password));
        TurnShared shared = new TurnShared(
                restCredentials
                        ? CredentialStore.of(REALM, List.of(), List.of(REST_SECRET), ':')
                        : CredentialStore.of(REALM, List.of(USER + ":" + PASSWORD), List.of(), ':'),
                new AllocationQuota(0, 0, 100_000),
                new RelayPortPool(49152, 49407, 42),
                null,
                PeerAddressPolicy.of(List.of(), List.of(), false, List.of(LISTENER)),
                utf8("nonce-key-for-benchmarks"),
                TimeUnit.SECONDS.toNanos(600),
                () -> System.currentTimeMillis() / 1000,
                new AtomicBoolean());
        engine = new TurnEngine(
                config.relayAddressV4(RELAY).software(utf8("tern-bench")).build(), shared, relays, sink, NOW_NS);
        engine.registerListener(UDP_LISTENER, TransportProtocol.UDP);
    }

    /** Allocate (401, then signed), CreatePermission and ChannelBind towards {@link #PEER}; throws unless each succeeds. */
    EngineHarness withChannel() {
        start(StunMethod.ALLOCATE);
        writer.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);
        writer.putFingerprint();
        expect(deliver(bytes()), StunClass.ERROR_RESPONSE, "unauthenticated Allocate");
        if (errorCode() != ErrorCode.UNAUTHENTICATED) {
            throw new IllegalStateException("expected 401, got " + errorCode());
        }
        realm = value(AttributeType.REALM);
        nonce = value(AttributeType.NONCE);

        signedAllocate = signed(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
        expect(deliver(signedAllocate), StunClass.SUCCESS_RESPONSE, "Allocate");
        relayId = relays.lastId;

        signedCreatePermission =
                signed(StunMethod.CREATE_PERMISSION, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER));
        expect(deliver(signedCreatePermission), StunClass.SUCCESS_RESPONSE, "CreatePermission");
        signedChannelBind = signed(StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, CHANNEL << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER);
        });
        expect(deliver(signedChannelBind), StunClass.SUCCESS_RESPONSE, "ChannelBind");
        sink.capture = false;
        return this;
    }

    /** Fails if the engine dropped anything since set-up: a benchmark must measure the relay path, not a drop. */
    void checkNothingDropped() {
        for (DropReason r : DropReason.values()) {
            long n = engine.counters().drops(r);
            if (n != 0) {
                throw new IllegalStateException("engine dropped " + n + " packets (" + r + ") during the benchmark");
            }
        }
    }

    private interface Attributes {
        void put(StunMessageWriter w);
    }

    private byte[] signed(int method, Attributes attributes) {
        start(method);
        attributes.put(writer);
        writer.putBytes(AttributeType.USERNAME, utf8(username));
        writer.putBytes(AttributeType.REALM, realm);
        writer.putBytes(AttributeType.NONCE, nonce);
        writer.putMessageIntegrity(key);
        writer.putFingerprint();
        return bytes();
    }

    private void start(int method) {
        writer.start(scratch, 0, StunClass.messageType(method, StunClass.REQUEST), 0x7E570000, ++tid);
    }

    private byte[] bytes() {
        byte[] b = new byte[writer.length()];
        scratch.getBytes(0, b);
        return b;
    }

    private byte[] deliver(byte[] request) {
        sink.lastToClient = null;
        engine.onClientPacket(
                UDP_LISTENER,
                TurnEngineSink.NO_CONNECTION,
                CLIENT,
                new UnsafeBuffer(request.clone()),
                0,
                request.length,
                NOW_NS);
        if (sink.lastToClient == null) {
            throw new IllegalStateException("engine did not answer");
        }
        return sink.lastToClient;
    }

    private void expect(byte[] response, int messageClass, String what) {
        if (responses.decode(new UnsafeBuffer(response), 0, response.length) != StunMessageDecoder.OK) {
            throw new IllegalStateException(what + ": undecodable answer");
        }
        if (responses.messageClass() != messageClass) {
            throw new IllegalStateException(what + ": answer class 0x" + Integer.toHexString(responses.messageClass())
                    + ", error " + errorCode());
        }
    }

    private int errorCode() {
        int at = responses.valueOffset(AttributeType.ERROR_CODE);
        if (at < 0) {
            return -1;
        }
        DirectBuffer b = responses.buffer();
        return (b.getByte(at + 2) & 0x7) * 100 + (b.getByte(at + 3) & 0xFF);
    }

    private byte[] value(int type) {
        byte[] v = new byte[responses.valueLength(type)];
        responses.copyValue(type, v);
        return v;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Counts what the engine sends. During set-up it also copies messages to the client, so the
     * harness can read the answers; on the relay path it only counts (no copy, no allocation).
     */
    static final class CountingSink implements TurnEngineSink {
        boolean capture = true;
        byte[] lastToClient;
        long toClient;
        long toPeer;
        long bytes;

        @Override
        public void sendToClient(
                int listenerId,
                long connectionId,
                TransportAddress client,
                DirectBuffer buffer,
                int offset,
                int length) {
            toClient++;
            bytes += length;
            if (capture) {
                lastToClient = new byte[length];
                buffer.getBytes(offset, lastToClient);
            }
        }

        @Override
        public void sendToPeer(int relayId, TransportAddress peer, DirectBuffer buffer, int offset, int length) {
            toPeer++;
            bytes += length + buffer.getByte(offset);
        }
    }

    /** Relay sockets that exist only as ids. */
    static final class FakeRelaySockets implements RelaySockets {
        int lastId = -1;
        private int nextId = 11;

        @Override
        public int open(TransportAddress address) {
            lastId = nextId++;
            return lastId;
        }

        @Override
        public void close(int relayId) {}
    }
}
