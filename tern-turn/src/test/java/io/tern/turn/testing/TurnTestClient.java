package io.tern.turn.testing;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A TURN client speaking to a {@link TurnFixture}'s engine in memory. It builds requests with the
 * codec's {@link StunMessageWriter}, signs them with the long-term credential once a 401 has told it
 * the realm and nonce, and reads the engine's answers back as {@link StunResponse}s.
 */
public final class TurnTestClient {
    public static final int REQUESTED_TRANSPORT_UDP = 17 << 24;
    public static final int REQUESTED_TRANSPORT_TCP = 6 << 24;
    public static final int ALGORITHM_MD5 = 1;
    public static final int ALGORITHM_SHA256 = 2;
    private static final int MAX = 65535 + 20;
    private static int clients;

    public final TurnFixture fx;
    public final int listenerId;
    public final long connectionId;
    public final TransportAddress address;

    public String username;
    public byte[] keyMd5;
    public byte[] keySha256;
    public byte[] realm;
    public byte[] nonce;
    public byte[] passwordAlgorithms;
    /** Sign with MESSAGE-INTEGRITY-SHA256 instead of MESSAGE-INTEGRITY. */
    public boolean sha256Integrity;
    /** Send PASSWORD-ALGORITHM SHA-256 (and echo PASSWORD-ALGORITHMS), keying with the SHA-256 key. */
    public boolean sha256Password;
    /** Send USERHASH instead of USERNAME. */
    public boolean userhash;

    public boolean fingerprint = true;
    /** Answer a 438 by taking the new nonce and retrying once, as real clients do. */
    public boolean retryStaleNonce = true;
    /** XOR-RELAYED-ADDRESS of the last successful Allocate. */
    public TransportAddress relayed;

    private final StunMessageWriter writer = new StunMessageWriter(new MessageIntegrity(MAX), new Fingerprint(MAX));
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[MAX]);
    private final int tidHigh;
    private long tidLow;
    private int seen;

    public TurnTestClient(TurnFixture fx, int listenerId, long connectionId, TransportAddress address) {
        this.fx = fx;
        this.listenerId = listenerId;
        this.connectionId = connectionId;
        this.address = address;
        this.tidHigh = 0x7E570000 | ++clients;
        this.seen = fx.transport.toClient.size();
    }

    public TurnTestClient credentials(String username, String password) {
        byte[] name = utf8(username);
        byte[] realmBytes = utf8(TurnFixture.REALM);
        this.username = username;
        this.keyMd5 = MessageIntegrity.longTermKeyMd5(name, realmBytes, utf8(password));
        this.keySha256 = MessageIntegrity.longTermKeySha256(name, realmBytes, utf8(password));
        return this;
    }

    /** The key this client signs with. */
    public byte[] key() {
        return sha256Password ? keySha256 : keyMd5;
    }

    // ---------------------------------------------------------------------------------------------
    // Building

    /** A request signed with the long-term credential (USERNAME/USERHASH, REALM, NONCE, integrity). */
    public byte[] signedRequest(int method, Consumer<StunMessageWriter> attributes) {
        return signed(method, attributes, key());
    }

    public byte[] signed(int method, Consumer<StunMessageWriter> attributes, byte[] signingKey) {
        start(StunClass.messageType(method, StunClass.REQUEST));
        attributes.accept(writer);
        if (userhash) {
            writer.putBytes(AttributeType.USERHASH, MessageIntegrity.userHash(utf8(username), utf8(TurnFixture.REALM)));
        } else {
            writer.putBytes(AttributeType.USERNAME, utf8(username));
        }
        writer.putBytes(AttributeType.REALM, realm);
        writer.putBytes(AttributeType.NONCE, nonce);
        if (sha256Password) {
            writer.putBytes(AttributeType.PASSWORD_ALGORITHM, new byte[] {0, ALGORITHM_SHA256, 0, 0});
            writer.putBytes(AttributeType.PASSWORD_ALGORITHMS, passwordAlgorithms);
        }
        if (sha256Integrity) {
            writer.putMessageIntegritySha256(signingKey);
        } else {
            writer.putMessageIntegrity(signingKey);
        }
        return finish();
    }

    /** A request built exactly from {@code attributes}, plus FINGERPRINT when enabled. */
    public byte[] unsignedRequest(int method, Consumer<StunMessageWriter> attributes) {
        start(StunClass.messageType(method, StunClass.REQUEST));
        attributes.accept(writer);
        return finish();
    }

    public byte[] indication(int method, Consumer<StunMessageWriter> attributes) {
        start(StunClass.messageType(method, StunClass.INDICATION));
        attributes.accept(writer);
        return finish();
    }

    private void start(int messageType) {
        writer.start(scratch, 0, messageType, tidHigh, ++tidLow);
    }

    private byte[] finish() {
        if (fingerprint) {
            writer.putFingerprint();
        }
        byte[] bytes = new byte[writer.length()];
        scratch.getBytes(0, bytes);
        return bytes;
    }

    public static Consumer<StunMessageWriter> udpTransport() {
        return w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, REQUESTED_TRANSPORT_UDP);
    }

    public static Consumer<StunMessageWriter> tcpTransport() {
        return w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, REQUESTED_TRANSPORT_TCP);
    }

    // ---------------------------------------------------------------------------------------------
    // Exchanging

    /**
     * Hands {@code message} to the engine as this client and returns every STUN message sent to this
     * client since the last look (ChannelData is skipped).
     */
    public List<StunResponse> deliver(byte[] message) {
        fx.deliver(listenerId, connectionId, address.copy(), new UnsafeBuffer(message.clone()), 0, message.length);
        List<StunResponse> out = new ArrayList<>();
        for (FakeTransport.ToClient m : received()) {
            if ((m.bytes()[0] & 0xC0) != 0x40) {
                out.add(StunResponse.parse(m.bytes()));
            }
        }
        return out;
    }

    /** Delivers a request and returns the one answer, or null when the engine stayed silent. */
    public StunResponse exchange(byte[] message) {
        List<StunResponse> answers = deliver(message);
        if (answers.size() > 1) {
            throw new AssertionError("expected at most one answer, got " + answers);
        }
        return answers.isEmpty() ? null : answers.get(0);
    }

    /** Messages sent to this client (any kind) since the last call. */
    public List<FakeTransport.ToClient> received() {
        List<FakeTransport.ToClient> all = fx.transport.toClient;
        List<FakeTransport.ToClient> mine = new ArrayList<>();
        for (int i = seen; i < all.size(); i++) {
            FakeTransport.ToClient m = all.get(i);
            if (m.listenerId() == listenerId
                    && m.connectionId() == connectionId
                    && m.address().equals(address)) {
                mine.add(m);
            }
        }
        seen = all.size();
        return mine;
    }

    /** Sends an unauthenticated Allocate and learns realm, nonce and algorithms from the 401. */
    public StunResponse challenge() {
        StunResponse answer = exchange(unsignedRequest(StunMethod.ALLOCATE, udpTransport()));
        if (answer == null || answer.errorCode() != ErrorCode.UNAUTHENTICATED) {
            throw new AssertionError("expected a 401 challenge, got " + answer);
        }
        learn(answer);
        return answer;
    }

    private void learn(StunResponse challenge) {
        realm = challenge.value(AttributeType.REALM);
        nonce = challenge.value(AttributeType.NONCE);
        passwordAlgorithms = challenge.value(AttributeType.PASSWORD_ALGORITHMS);
    }

    /** A signed request, fetching a nonce first if needed and retrying once on 438. */
    public StunResponse request(int method, Consumer<StunMessageWriter> attributes) {
        if (nonce == null) {
            challenge();
        }
        StunResponse answer = exchange(signedRequest(method, attributes));
        if (retryStaleNonce && answer != null && answer.errorCode() == ErrorCode.STALE_NONCE) {
            learn(answer);
            answer = exchange(signedRequest(method, attributes));
        }
        return answer;
    }

    public StunResponse allocate() {
        return allocate(w -> {});
    }

    public StunResponse allocate(Consumer<StunMessageWriter> extra) {
        StunResponse answer = request(StunMethod.ALLOCATE, udpTransport().andThen(extra));
        if (answer != null && answer.isSuccess()) {
            relayed = answer.xorAddress(AttributeType.XOR_RELAYED_ADDRESS);
        }
        return answer;
    }

    /** Allocates and fails the test unless it worked. */
    public TurnTestClient allocated() {
        StunResponse answer = allocate();
        if (answer == null || !answer.isSuccess()) {
            throw new AssertionError("Allocate failed: " + answer);
        }
        return this;
    }

    /** The fake relay socket id behind {@link #relayed}. */
    public int relayId() {
        int id = fx.transport.idOf(relayed);
        if (id < 0) {
            throw new AssertionError("no open relay socket at " + relayed);
        }
        return id;
    }

    /** A TCP allocation (RFC 6062); the client must be on a TCP or TLS connection. */
    public StunResponse allocateTcp() {
        StunResponse answer = request(StunMethod.ALLOCATE, tcpTransport());
        if (answer != null && answer.isSuccess()) {
            relayed = answer.xorAddress(AttributeType.XOR_RELAYED_ADDRESS);
        }
        return answer;
    }

    /** Connect (RFC 6062 §5.2) to a peer; the answer may come later, once the connection is made. */
    public StunResponse connect(TransportAddress peer) {
        return request(StunMethod.CONNECT, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer));
    }

    /** ConnectionBind (RFC 6062 §5.4) on this client's connection. */
    public StunResponse connectionBind(long connectionIdAttribute) {
        return request(
                StunMethod.CONNECTION_BIND, w -> w.putInt(AttributeType.CONNECTION_ID, (int) connectionIdAttribute));
    }

    /** A client on another connection (for a data connection) signing with the same credentials. */
    public TurnTestClient sibling(int port, long otherConnectionId) {
        TurnTestClient other = new TurnTestClient(
                fx,
                listenerId,
                otherConnectionId,
                TransportAddress.parse(address.toInetAddress().getHostAddress(), port));
        other.username = username;
        other.keyMd5 = keyMd5;
        other.keySha256 = keySha256;
        return other;
    }

    public StunResponse refresh(int lifetimeSeconds) {
        return request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, lifetimeSeconds));
    }

    public StunResponse refresh() {
        return request(StunMethod.REFRESH, w -> {});
    }

    public StunResponse createPermission(TransportAddress... peers) {
        return request(StunMethod.CREATE_PERMISSION, w -> {
            for (TransportAddress peer : peers) {
                w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
            }
        });
    }

    public StunResponse channelBind(int channel, TransportAddress peer) {
        return request(StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, channel << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
        });
    }

    /** A Send indication; returns anything the engine answered (it never should). */
    public List<StunResponse> sendIndication(TransportAddress peer, byte[] data) {
        return deliver(indication(StunMethod.SEND, w -> {
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
            w.putBytes(AttributeType.DATA, data);
        }));
    }

    /** ChannelData from this client; returns the buffer handed to the engine, for zero-copy checks. */
    public UnsafeBuffer channelData(int channel, byte[] data) {
        UnsafeBuffer buffer = new UnsafeBuffer(channelDataBytes(channel, data.length, data));
        fx.deliver(listenerId, connectionId, address.copy(), buffer, 0, buffer.capacity());
        return buffer;
    }

    public static byte[] channelDataBytes(int channel, int lengthField, byte[] data) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[4 + data.length]);
        buffer.putShort(0, (short) channel, ByteOrder.BIG_ENDIAN);
        buffer.putShort(2, (short) lengthField, ByteOrder.BIG_ENDIAN);
        buffer.putBytes(4, data);
        return buffer.byteArray();
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
