package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.attribute.ErrorCode;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.FakeTransport;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.nio.ByteOrder;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * TURN over TCP to peers (RFC 6062) in the engine alone: TCP allocations, Connect, peers
 * connecting in, ConnectionBind, and every refusal and timeout, on a fake clock.
 */
class TcpAllocationTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.9", 8000);
    private static final long CONTROL = 7;
    private static final long DATA = 8;

    private final TurnFixture fx =
            TurnFixture.builder().config(c -> c.maxPeerConnections(2)).build();

    private TurnTestClient control() {
        return fx.tcpClient("198.51.100.7", 40001, CONTROL).credentials("alice", "alice-secret");
    }

    /** A control connection with a TCP allocation and a permission for {@link #PEER}. */
    private TurnTestClient allocatedWithPermission() {
        TurnTestClient client = control();
        assertThat(client.allocateTcp().isSuccess()).isTrue();
        assertThat(client.createPermission(PEER).isSuccess()).isTrue();
        return client;
    }

    private int listenerRelayId(TurnTestClient client) {
        int id = client.relayId();
        assertThat(fx.transport.isTcp(id))
                .as("the relayed address is a TCP listener")
                .isTrue();
        return id;
    }

    private static long connectionId(StunResponse answer) {
        byte[] value = answer.value(AttributeType.CONNECTION_ID);
        assertThat(value).hasSize(4);
        return new UnsafeBuffer(value).getInt(0, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    // ---------------------------------------------------------------------------------------------
    // Allocate (§5.1)

    @Test
    void tcpAllocationOnATcpConnectionListensOnItsRelayedAddress() {
        TurnTestClient client = control();
        StunResponse answer = client.allocateTcp();
        assertThat(answer.isSuccess()).isTrue();
        assertThat(fx.transport.isTcp(client.relayId())).isTrue();
        assertThat(fx.counters().activeAllocations(TransportProtocol.TCP)).isEqualTo(1);
    }

    @Test
    void tcpAllocationOverUdpIs442() {
        TurnTestClient udp = fx.alice("198.51.100.7", 40001);
        assertThat(udp.request(StunMethod.ALLOCATE, TurnTestClient.tcpTransport())
                        .errorCode())
                .isEqualTo(ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
        assertThat(fx.engine.allocationCount()).isZero();
    }

    @Test
    void tcpAllocationRefusesDontFragmentEvenPortAndTokens() {
        TurnTestClient client = control();
        assertThat(client.request(
                                StunMethod.ALLOCATE,
                                TurnTestClient.tcpTransport().andThen(w -> w.putEmpty(AttributeType.DONT_FRAGMENT)))
                        .errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.request(
                                StunMethod.ALLOCATE,
                                TurnTestClient.tcpTransport()
                                        .andThen(w -> w.putBytes(AttributeType.EVEN_PORT, new byte[] {0})))
                        .errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.request(
                                StunMethod.ALLOCATE,
                                TurnTestClient.tcpTransport()
                                        .andThen(w -> w.putBytes(AttributeType.RESERVATION_TOKEN, new byte[8])))
                        .errorCode())
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(fx.transport.open).isEmpty();
    }

    @Test
    void unknownTransportIs442() {
        TurnTestClient client = control();
        assertThat(client.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 132 << 24))
                        .errorCode())
                .isEqualTo(ErrorCode.UNSUPPORTED_TRANSPORT_PROTOCOL);
    }

    @Test
    void tcpAllocationsCountAgainstTheQuota() {
        TurnFixture quota = TurnFixture.builder().userQuota(1).build();
        TurnTestClient first = quota.tcpClient("198.51.100.7", 40001, 1).credentials("alice", "alice-secret");
        TurnTestClient second = quota.tcpClient("198.51.100.7", 40002, 2).credentials("alice", "alice-secret");
        assertThat(first.allocateTcp().isSuccess()).isTrue();
        assertThat(second.allocateTcp().errorCode()).isEqualTo(ErrorCode.ALLOCATION_QUOTA_REACHED);
    }

    @Test
    void channelsAndSendIndicationsDoNotApplyToTcpAllocations() {
        TurnTestClient client = allocatedWithPermission();
        assertThat(client.channelBind(0x4000, PEER).errorCode()).isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(client.sendIndication(PEER, new byte[] {1})).isEmpty();
        assertThat(fx.transport.toPeer).isEmpty();
        assertThat(fx.counters().drops(DropReason.UNEXPECTED_MESSAGE)).isEqualTo(1);
    }

    // ---------------------------------------------------------------------------------------------
    // Connect (§5.2)

    @Test
    void connectOpensAConnectionFromTheRelayedAddressAndAnswersWithItsId() {
        TurnTestClient client = allocatedWithPermission();
        int listener = listenerRelayId(client);
        StunResponse answer = client.connect(PEER);
        assertThat(answer.isSuccess()).isTrue();
        assertThat(connectionId(answer)).isNotZero();
        assertThat(fx.transport.connects).hasSize(1);
        int peerRelay = fx.transport.connects.get(0);
        assertThat(fx.transport.peerConnections.get(peerRelay)).isEqualTo(PEER);
        assertThat(peerRelay).isNotEqualTo(listener);
        assertThat(fx.engine.peerConnectionCount()).isEqualTo(1);
    }

    @Test
    void connectIsAnsweredOnlyOnceTheTransportReportsBack() {
        TurnTestClient client = allocatedWithPermission();
        fx.transport.connectOutcome = FakeTransport.ConnectOutcome.WAIT;
        assertThat(client.connect(PEER)).as("no answer while connecting").isNull();
        fx.transport.completeConnect(fx.transport.connects.get(0), true);
        List<StunResponse> answers = client.received().stream()
                .map(m -> StunResponse.parse(m.bytes()))
                .toList();
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).method()).isEqualTo(StunMethod.CONNECT);
        assertThat(answers.get(0).isSuccess()).isTrue();
    }

    @Test
    void connectThatFailsIs447() {
        TurnTestClient client = allocatedWithPermission();
        fx.transport.connectOutcome = FakeTransport.ConnectOutcome.FAIL;
        assertThat(client.connect(PEER).errorCode()).isEqualTo(ErrorCode.CONNECTION_TIMEOUT_OR_FAILURE);
        assertThat(fx.engine.peerConnectionCount()).isZero();
    }

    @Test
    void connectThatTakesThirtySecondsIs447AndIsAbandoned() {
        TurnTestClient client = allocatedWithPermission();
        fx.transport.connectOutcome = FakeTransport.ConnectOutcome.WAIT;
        assertThat(client.connect(PEER)).isNull();
        int relay = fx.transport.connects.get(0);
        fx.advanceSeconds(29);
        assertThat(client.received()).isEmpty();
        fx.advanceSeconds(2);
        List<FakeTransport.ToClient> answers = client.received();
        assertThat(answers).hasSize(1);
        assertThat(StunResponse.parse(answers.get(0).bytes()).errorCode())
                .isEqualTo(ErrorCode.CONNECTION_TIMEOUT_OR_FAILURE);
        assertThat(fx.transport.closed).contains(relay);
        // A late success changes nothing: the engine already forgot the attempt.
        fx.transport.completeConnect(relay, true);
        assertThat(client.received()).isEmpty();
        assertThat(fx.engine.peerConnectionCount()).isZero();
    }

    @Test
    void secondConnectToTheSamePeerIs446WhileConnectingAndAfter() {
        TurnTestClient client = allocatedWithPermission();
        fx.transport.connectOutcome = FakeTransport.ConnectOutcome.WAIT;
        assertThat(client.connect(PEER)).isNull();
        assertThat(client.connect(PEER).errorCode()).isEqualTo(ErrorCode.CONNECTION_ALREADY_EXISTS);
        fx.transport.completeConnect(fx.transport.connects.get(0), true);
        client.received();
        assertThat(client.connect(PEER).errorCode()).isEqualTo(ErrorCode.CONNECTION_ALREADY_EXISTS);
    }

    @Test
    void connectNeedsAPermissionAndAnAllowedPeer() {
        TurnTestClient client = control();
        assertThat(client.allocateTcp().isSuccess()).isTrue();
        assertThat(client.connect(PEER).errorCode()).as("no permission").isEqualTo(ErrorCode.FORBIDDEN);
        TransportAddress loopback = TransportAddress.parse("127.0.0.1", 8000);
        assertThat(client.connect(loopback).errorCode()).as("denied by policy").isEqualTo(ErrorCode.FORBIDDEN);
        assertThat(fx.transport.connects).isEmpty();
    }

    @Test
    void connectRefusals() {
        TurnTestClient client = allocatedWithPermission();
        assertThat(client.request(StunMethod.CONNECT, w -> {}).errorCode())
                .as("no XOR-PEER-ADDRESS")
                .isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(client.connect(TransportAddress.parse("2001:db8::9", 8000)).errorCode())
                .as("an IPv6 peer of an IPv4 allocation")
                .isEqualTo(ErrorCode.PEER_ADDRESS_FAMILY_MISMATCH);
        TurnTestClient udp = fx.alice("198.51.100.8", 40001).allocated();
        assertThat(udp.createPermission(PEER).isSuccess()).isTrue();
        assertThat(udp.connect(PEER).errorCode()).as("a UDP allocation").isEqualTo(ErrorCode.FORBIDDEN);
        TurnTestClient none = fx.tcpClient("198.51.100.9", 40001, 99).credentials("alice", "alice-secret");
        assertThat(none.connect(PEER).errorCode()).as("no allocation").isEqualTo(ErrorCode.ALLOCATION_MISMATCH);
    }

    @Test
    void connectionsPerAllocationAreBounded() {
        TurnTestClient client = control();
        assertThat(client.allocateTcp().isSuccess()).isTrue();
        TransportAddress[] peers = {
            TransportAddress.parse("203.0.113.1", 1),
            TransportAddress.parse("203.0.113.2", 1),
            TransportAddress.parse("203.0.113.3", 1)
        };
        assertThat(client.createPermission(peers).isSuccess()).isTrue();
        assertThat(client.connect(peers[0]).isSuccess()).isTrue();
        assertThat(client.connect(peers[1]).isSuccess()).isTrue();
        assertThat(client.connect(peers[2]).errorCode()).isEqualTo(ErrorCode.INSUFFICIENT_CAPACITY);
        int listener = listenerRelayId(client);
        assertThat(fx.peerConnects(listener, TransportAddress.parse("203.0.113.1", 9)))
                .isEqualTo(-1);
    }

    // ---------------------------------------------------------------------------------------------
    // Peers connecting in (§5.3)

    @Test
    void peerConnectingInIsAnnouncedWithAConnectionAttempt() {
        TurnTestClient client = allocatedWithPermission();
        client.received();
        int relay = fx.peerConnects(listenerRelayId(client), PEER);
        assertThat(relay).isPositive();
        List<FakeTransport.ToClient> messages = client.received();
        assertThat(messages).hasSize(1);
        StunResponse attempt = StunResponse.parse(messages.get(0).bytes());
        assertThat(attempt.method()).isEqualTo(StunMethod.CONNECTION_ATTEMPT);
        assertThat(attempt.messageClass()).isEqualTo(StunClass.INDICATION);
        assertThat(attempt.xorAddress(AttributeType.XOR_PEER_ADDRESS)).isEqualTo(PEER);
        assertThat(connectionId(attempt)).isNotZero();
    }

    @Test
    void peerWithoutPermissionIsRefused() {
        TurnTestClient client = control();
        assertThat(client.allocateTcp().isSuccess()).isTrue();
        client.received();
        assertThat(fx.peerConnects(listenerRelayId(client), PEER)).isEqualTo(-1);
        assertThat(client.received()).isEmpty();
        assertThat(fx.counters().drops(DropReason.PEER_CONNECTION_REFUSED)).isEqualTo(1);
    }

    @Test
    void unboundConnectionIsClosedAfterThirtySeconds() {
        TurnTestClient client = allocatedWithPermission();
        int relay = fx.peerConnects(listenerRelayId(client), PEER);
        long id = connectionId(StunResponse.parse(client.received().get(0).bytes()));
        fx.advanceSeconds(29);
        assertThat(fx.transport.closed).doesNotContain(relay);
        fx.advanceSeconds(2);
        assertThat(fx.transport.closed).contains(relay);
        assertThat(fx.engine.peerConnectionCount()).isZero();
        TurnTestClient data = client.sibling(40002, DATA);
        assertThat(data.connectionBind(id).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
    }

    // ---------------------------------------------------------------------------------------------
    // ConnectionBind (§5.4)

    @Test
    void connectionBindJoinsTheDataConnectionToThePeer() {
        TurnTestClient client = allocatedWithPermission();
        long id = connectionId(client.connect(PEER));
        int relay = fx.transport.connects.get(0);
        TurnTestClient data = client.sibling(40002, DATA);
        StunResponse bound = data.connectionBind(id);
        assertThat(bound.isSuccess()).isTrue();
        assertThat(bound.method()).isEqualTo(StunMethod.CONNECTION_BIND);
        assertThat(fx.transport.bindings).containsEntry(relay, DATA);
        assertThat(fx.engine.holdsConnection(DATA)).isTrue();
        // Bound connections outlive the 30 s limit.
        fx.advanceSeconds(60);
        assertThat(fx.transport.closed).doesNotContain(relay);
    }

    @Test
    void connectionBindRefusals() {
        TurnTestClient client = allocatedWithPermission();
        long id = connectionId(client.connect(PEER));
        assertThat(client.connectionBind(id).errorCode())
                .as("on the control connection")
                .isEqualTo(ErrorCode.BAD_REQUEST);
        TurnTestClient udp = fx.alice("198.51.100.8", 40001);
        assertThat(udp.connectionBind(id).errorCode()).as("over UDP").isEqualTo(ErrorCode.BAD_REQUEST);
        TurnTestClient data = client.sibling(40002, DATA);
        assertThat(data.connectionBind(id ^ 1).errorCode()).as("unknown id").isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(data.request(StunMethod.CONNECTION_BIND, w -> {}).errorCode())
                .as("no CONNECTION-ID")
                .isEqualTo(ErrorCode.BAD_REQUEST);
        TurnTestClient bob = fx.tcpClient("198.51.100.7", 40003, 9).credentials("bob", "bob-secret");
        assertThat(bob.connectionBind(id).errorCode()).as("another user").isEqualTo(ErrorCode.WRONG_CREDENTIALS);
        assertThat(data.connectionBind(id).isSuccess()).isTrue();
        TurnTestClient again = client.sibling(40004, 10);
        assertThat(again.connectionBind(id).errorCode()).as("already bound").isEqualTo(ErrorCode.BAD_REQUEST);
    }

    @Test
    void connectionBindForAnotherRelayThreadMovesTheConnectionThere() {
        TurnFixture first = TurnFixture.builder().shard(0, 2).build();
        TurnFixture second = TurnFixture.builder().shard(1, 2).build();
        TurnTestClient client = first.tcpClient("198.51.100.7", 40001, CONTROL).credentials("alice", "alice-secret");
        assertThat(client.allocateTcp().isSuccess()).isTrue();
        assertThat(client.createPermission(PEER).isSuccess()).isTrue();
        long id = connectionId(client.connect(PEER));
        assertThat(id >>> 24).as("the issuing thread is in the top byte").isZero();

        // The data connection was accepted by the other thread.
        TurnTestClient data = second.tcpClient("198.51.100.7", 40002, DATA).credentials("alice", "alice-secret");
        assertThat(data.connectionBind(id)).as("not answered where it arrived").isNull();
        assertThat(second.transport.migrations).hasSize(1);
        FakeTransport.Migration moved = second.transport.migrations.get(0);
        assertThat(moved.connectionId()).isEqualTo(DATA);
        assertThat(moved.targetShard()).isZero();

        // The owning thread handles the same message for the moved connection.
        TurnTestClient adopted = first.tcpClient("198.51.100.7", 40002, 77);
        StunResponse bound = adopted.exchange(moved.message());
        assertThat(bound.isSuccess()).isTrue();
        assertThat(first.transport.bindings).containsEntry(first.transport.connects.get(0), 77L);
    }

    @Test
    void connectionIdOfAThreadThatDoesNotExistIs400() {
        TurnFixture second = TurnFixture.builder().shard(1, 2).build();
        TurnTestClient data = second.tcpClient("198.51.100.7", 40002, DATA).credentials("alice", "alice-secret");
        assertThat(data.connectionBind(7L << 24 | 1).errorCode()).isEqualTo(ErrorCode.BAD_REQUEST);
        assertThat(second.transport.migrations).isEmpty();
    }

    // ---------------------------------------------------------------------------------------------
    // Ends

    @Test
    void closingTheDataConnectionClosesThePeerConnection() {
        TurnTestClient client = allocatedWithPermission();
        long id = connectionId(client.connect(PEER));
        int relay = fx.transport.connects.get(0);
        assertThat(client.sibling(40002, DATA).connectionBind(id).isSuccess()).isTrue();
        fx.connectionCloses(DATA);
        assertThat(fx.transport.closed).contains(relay);
        assertThat(fx.engine.peerConnectionCount()).isZero();
        assertThat(fx.engine.allocationCount()).isEqualTo(1);
    }

    @Test
    void peerClosingFirstFreesItsSlot() {
        TurnTestClient client = allocatedWithPermission();
        int relay = fx.peerConnects(listenerRelayId(client), PEER);
        fx.peerCloses(relay);
        assertThat(fx.engine.peerConnectionCount()).isZero();
        assertThat(fx.peerConnects(listenerRelayId(client), PEER))
                .as("the peer may connect again")
                .isPositive();
    }

    @Test
    void closingTheControlConnectionClosesEverything() {
        TurnTestClient client = allocatedWithPermission();
        int listener = listenerRelayId(client);
        long id = connectionId(client.connect(PEER));
        int outgoing = fx.transport.connects.get(0);
        assertThat(client.sibling(40002, DATA).connectionBind(id).isSuccess()).isTrue();
        int incoming = fx.peerConnects(listener, TransportAddress.parse("203.0.113.9", 8001));
        fx.connectionCloses(CONTROL);
        assertThat(fx.transport.closed).contains(listener, outgoing, incoming);
        assertThat(fx.engine.peerConnectionCount()).isZero();
        assertThat(fx.engine.holdsConnection(DATA)).isFalse();
        assertThat(fx.state.allocations()).isZero();
        assertThat(fx.transport.badCloses).isZero();
    }

    @Test
    void expiryOfATcpAllocationClosesItsConnections() {
        TurnTestClient client = allocatedWithPermission();
        long id = connectionId(client.connect(PEER));
        int outgoing = fx.transport.connects.get(0);
        assertThat(client.sibling(40002, DATA).connectionBind(id).isSuccess()).isTrue();
        fx.advanceSeconds(601);
        assertThat(fx.engine.allocationCount()).isZero();
        assertThat(fx.transport.closed).contains(outgoing);
    }
}
