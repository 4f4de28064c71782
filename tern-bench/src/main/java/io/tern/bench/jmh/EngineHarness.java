package io.tern.bench.jmh;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.ClientEndpoint;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.testing.FakeTransport;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.agrona.MutableDirectBuffer;

/**
 * The engine test fixture ({@link TurnFixture}, from tern-turn's test-jar) with one allocation,
 * permission and channel set up through real signed requests (401 challenge, Allocate,
 * CreatePermission, ChannelBind), as a client would. No sockets, no threads, a fixed clock; the
 * fake transport only counts what it drains, so the measured path allocates nothing of its own.
 * It keeps the signed requests it sent, for the codec benchmarks.
 */
final class EngineHarness {
    static final String USER = "alice";
    static final String PASSWORD = "alice-secret";
    static final String REALM = TurnFixture.REALM;
    /** The TURN REST shared secret, and the expiry its usernames carry (far in the future). */
    static final String REST_SECRET = "rest-secret-for-benchmarks";

    static final String REST_USER = "4102444800:" + USER;
    static final int CHANNEL = 0x4000;
    static final TransportAddress CLIENT = TransportAddress.parse("198.51.100.10", 40000);
    static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);

    final TurnFixture fixture;
    final TurnEngine engine;
    final FakeTransport transport;
    final byte[] key;
    final long nowNs;
    private final ClientEndpoint client = new ClientEndpoint();
    private final TurnTestClient signer;

    /** The signed requests this harness sent, byte for byte. */
    byte[] signedAllocate;

    byte[] signedCreatePermission;
    byte[] signedChannelBind;
    int relayId = -1;

    /** A static user ({@link #USER}) and the default transaction cache. */
    EngineHarness() {
        this(false, c -> {});
    }

    /**
     * @param restCredentials sign as a TURN REST user ({@link #REST_USER}, password derived from
     *                        {@link #REST_SECRET}) instead of the static user
     * @param config          further engine settings
     */
    EngineHarness(boolean restCredentials, Consumer<TurnEngineConfig.Builder> config) {
        TurnFixture.Builder builder = TurnFixture.builder().config(config);
        if (restCredentials) {
            builder.onlyUsers().secret(REST_SECRET);
        }
        fixture = builder.build();
        engine = fixture.engine;
        transport = fixture.transport;
        nowNs = fixture.clock.nowNs();
        String username = restCredentials ? REST_USER : USER;
        String password = restCredentials ? CredentialStore.restPassword(utf8(REST_SECRET), utf8(REST_USER)) : PASSWORD;
        signer = new TurnTestClient(fixture, TurnFixture.UDP_LISTENER, ClientEndpoint.NO_CONNECTION, CLIENT)
                .credentials(username, password);
        key = signer.key();
        client.set(TurnFixture.UDP_LISTENER, ClientEndpoint.NO_CONNECTION, CLIENT);
    }

    /** Allocate (401, then signed), CreatePermission and ChannelBind towards {@link #PEER}; throws unless each succeeds. */
    EngineHarness withChannel() {
        signer.challenge();
        signedAllocate = signer.signedRequest(StunMethod.ALLOCATE, TurnTestClient.udpTransport());
        expectSuccess(signer.exchange(signedAllocate), "Allocate");
        relayId = transport.open.keySet().iterator().next();
        signedCreatePermission = signer.signedRequest(
                StunMethod.CREATE_PERMISSION, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER));
        expectSuccess(signer.exchange(signedCreatePermission), "CreatePermission");
        signedChannelBind = signer.signedRequest(StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, CHANNEL << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER);
        });
        expectSuccess(signer.exchange(signedChannelBind), "ChannelBind");
        transport.capture = false;
        return this;
    }

    private static void expectSuccess(io.tern.turn.testing.StunResponse answer, String what) {
        if (answer == null || !answer.isSuccess()) {
            throw new IllegalStateException(what + " failed: " + answer);
        }
    }

    /** A message from the client, then the drain the transport does after every input. */
    void fromClient(MutableDirectBuffer buffer, int offset, int length) {
        engine.onClientMessage(client, buffer, offset, length, nowNs);
        transport.drain(nowNs);
    }

    /** A datagram from {@link #PEER} on the allocation's relay socket, then the drain. */
    void fromPeer(TransportAddress peer, MutableDirectBuffer buffer, int offset, int length) {
        engine.onPeerDatagram(relayId, peer, buffer, offset, length, nowNs);
        transport.drain(nowNs);
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

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
