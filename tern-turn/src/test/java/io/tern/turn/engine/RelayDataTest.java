package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
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

/** Send and Data indications, ChannelData both ways (RFC 8656 §10, §12), and the zero-copy relay path. */
class RelayDataTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private static final byte[] PAYLOAD = {10, 20, 30, 40, 50};

    private final TurnFixture fx = TurnFixture.create();
    private final TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();

    @Test
    void sendIndicationRelaysTheDataToThePeer() {
        client.createPermission(PEER);

        assertThat(client.sendIndication(PEER, PAYLOAD))
                .as("indications get no answer")
                .isEmpty();

        List<FakeTransport.ToPeer> sent = fx.transport.takePeer();
        assertThat(sent).singleElement().satisfies(p -> {
            assertThat(p.relayId()).isEqualTo(client.relayId());
            assertThat(p.peer()).isEqualTo(PEER);
            assertThat(p.bytes()).containsExactly(PAYLOAD);
        });
        assertThat(fx.counters().relayedPackets(TurnCounters.DIRECTION_CLIENT_TO_PEER, TransportProtocol.UDP))
                .isEqualTo(1);
        assertThat(fx.counters().relayedBytes(TurnCounters.DIRECTION_CLIENT_TO_PEER, TransportProtocol.UDP))
                .isEqualTo(5);
    }

    @Test
    void sendIndicationWithoutPermissionIsDropped() {
        client.sendIndication(PEER, PAYLOAD);

        assertThat(fx.transport.takePeer()).isEmpty();
        assertThat(fx.counters().drops(DropReason.NO_PERMISSION)).isEqualTo(1);
    }

    @Test
    void sendIndicationToTheRelaysOwnListenerIsDropped() {
        TurnFixture open =
                TurnFixture.builder().allowedPeers(TurnFixture.RELAY_V4).build();
        TurnTestClient c = open.alice("198.51.100.7", 40001).allocated();
        assertThat(c.createPermission(TurnFixture.SERVER_LISTENER).isSuccess()).isTrue();

        c.sendIndication(TurnFixture.SERVER_LISTENER, PAYLOAD);

        assertThat(open.transport.takePeer()).isEmpty();
        assertThat(open.counters().drops(DropReason.PEER_DENIED)).isEqualTo(1);
    }

    @Test
    void sendIndicationWithoutDataIsDropped() {
        client.createPermission(PEER);

        client.deliver(client.indication(StunMethod.SEND, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER)));

        assertThat(fx.transport.takePeer()).isEmpty();
        assertThat(fx.counters().drops(DropReason.MALFORMED)).isEqualTo(1);
    }

    @Test
    void channelDataFromTheClientReachesThePeerWithoutACopy() {
        client.channelBind(0x4001, PEER);

        UnsafeBuffer datagram = client.channelData(0x4001, PAYLOAD);

        assertThat(fx.transport.takePeer()).singleElement().satisfies(p -> {
            assertThat(p.relayId()).isEqualTo(client.relayId());
            assertThat(p.peer()).isEqualTo(PEER);
            assertThat(p.bytes()).containsExactly(PAYLOAD);
            assertThat(p.buffer()).isSameAs(datagram);
            assertThat(p.offset()).isEqualTo(4);
        });
    }

    @Test
    void paddedChannelDataRelaysOnlyTheDataLength() {
        client.channelBind(0x4001, PEER);
        byte[] padded = TurnTestClient.channelDataBytes(0x4001, 3, new byte[] {1, 2, 3, 0});

        fx.deliver(TurnFixture.UDP_LISTENER, 0, client.address, new UnsafeBuffer(padded), 0, padded.length);

        assertThat(fx.transport.takePeer())
                .singleElement()
                .satisfies(p -> assertThat(p.bytes()).containsExactly(1, 2, 3));
    }

    @Test
    void channelDataOnAnUnboundChannelIsDroppedAndCounted() {
        client.channelBind(0x4001, PEER);

        client.channelData(0x4002, PAYLOAD);

        assertThat(fx.transport.takePeer()).isEmpty();
        assertThat(fx.counters().drops(DropReason.NO_CHANNEL)).isEqualTo(1);
    }

    @Test
    void channelDataLongerThanTheDatagramIsDropped() {
        client.channelBind(0x4001, PEER);
        byte[] lying = TurnTestClient.channelDataBytes(0x4001, 100, PAYLOAD);

        fx.deliver(TurnFixture.UDP_LISTENER, 0, client.address, new UnsafeBuffer(lying), 0, lying.length);

        assertThat(fx.transport.takePeer()).isEmpty();
        assertThat(fx.counters().drops(DropReason.MALFORMED)).isEqualTo(1);
    }

    @Test
    void peerDataOnAChannelGoesToTheClientAsChannelDataWrittenIntoTheHeadroom() {
        client.channelBind(0x4001, PEER);
        client.received();

        UnsafeBuffer datagram = fx.peerSends(client.relayId(), PEER, PAYLOAD);

        List<FakeTransport.ToClient> messages = client.received();
        assertThat(messages).singleElement().satisfies(m -> {
            assertThat(m.buffer())
                    .as("no copy: the header goes into the headroom")
                    .isSameAs(datagram);
            assertThat(m.offset()).isZero();
            UnsafeBuffer b = new UnsafeBuffer(m.bytes());
            assertThat(b.getShort(0, ByteOrder.BIG_ENDIAN) & 0xFFFF).isEqualTo(0x4001);
            assertThat(b.getShort(2, ByteOrder.BIG_ENDIAN) & 0xFFFF).isEqualTo(PAYLOAD.length);
            assertThat(java.util.Arrays.copyOfRange(m.bytes(), 4, m.bytes().length))
                    .containsExactly(PAYLOAD);
        });
        assertThat(fx.counters().relayedPackets(TurnCounters.DIRECTION_PEER_TO_CLIENT, TransportProtocol.UDP))
                .isEqualTo(1);
    }

    @Test
    void peerDataWithoutAChannelGoesToTheClientAsDataIndication() {
        client.createPermission(PEER);
        client.received();

        fx.peerSends(client.relayId(), PEER, PAYLOAD);

        List<FakeTransport.ToClient> messages = client.received();
        assertThat(messages).hasSize(1);
        StunResponse data = StunResponse.parse(messages.get(0).bytes());
        assertThat(data.messageType()).isEqualTo(StunClass.messageType(StunMethod.DATA, StunClass.INDICATION));
        assertThat(data.xorAddress(AttributeType.XOR_PEER_ADDRESS)).isEqualTo(PEER);
        assertThat(data.value(AttributeType.DATA)).containsExactly(PAYLOAD);
        assertThat(data.has(AttributeType.MESSAGE_INTEGRITY)).isFalse();
    }

    @Test
    void dataIndicationFromAnIpv6PeerCarriesItsAddress() {
        TurnFixture dual = TurnFixture.builder().ipv6Relay().build();
        TurnTestClient c = dual.alice("198.51.100.7", 40001);
        c.allocate(w -> w.putInt(AttributeType.ADDITIONAL_ADDRESS_FAMILY, 0x02 << 24));
        TransportAddress peer6 = TransportAddress.parse("2001:db8:1::5", 5000);
        assertThat(c.createPermission(peer6, PEER).isSuccess()).isTrue();
        int relay6 = dual.transport.open.entrySet().stream()
                .filter(e -> !e.getValue().isIpv4())
                .findFirst()
                .orElseThrow()
                .getKey();
        c.received();

        dual.peerSends(relay6, peer6, PAYLOAD);
        List<FakeTransport.ToClient> got = c.received();
        c.sendIndication(peer6, PAYLOAD);
        c.sendIndication(PEER, PAYLOAD);

        assertThat(got).hasSize(1);
        StunResponse data = StunResponse.parse(got.get(0).bytes());
        assertThat(data.xorAddress(AttributeType.XOR_PEER_ADDRESS)).isEqualTo(peer6);
        List<FakeTransport.ToPeer> sent = dual.transport.takePeer();
        assertThat(sent)
                .extracting(FakeTransport.ToPeer::relayId)
                .as("each family through its own relay socket")
                .containsExactly(relay6, c.relayId());
    }

    @Test
    void peerDataWithoutPermissionIsDropped() {
        client.received();

        fx.peerSends(client.relayId(), PEER, PAYLOAD);

        assertThat(client.received()).isEmpty();
        assertThat(fx.counters().drops(DropReason.NO_PERMISSION)).isEqualTo(1);
    }

    @Test
    void peerDataOnAnUnknownRelayIsDropped() {
        fx.peerSends(9999, PEER, PAYLOAD);

        assertThat(fx.transport.toClient).noneMatch(m -> m.client().equals(PEER));
        assertThat(fx.counters().drops(DropReason.NO_ALLOCATION)).isEqualTo(1);
    }

    @Test
    void sendAndChannelDataFromAFiveTupleWithoutAllocationAreDroppedSilently() {
        client.channelBind(0x4001, PEER);
        TurnTestClient stranger = fx.alice("198.51.100.7", 40002);

        assertThat(stranger.sendIndication(PEER, PAYLOAD)).isEmpty();
        stranger.channelData(0x4001, PAYLOAD);

        assertThat(stranger.received()).isEmpty();
        assertThat(fx.transport.takePeer()).isEmpty();
        assertThat(fx.counters().drops(DropReason.NO_ALLOCATION)).isEqualTo(2);
    }

    @Test
    void tcpClientGetsChannelDataOnItsConnection() {
        TurnTestClient tcp = fx.tcpClient("198.51.100.9", 40001, 5).credentials("alice", "alice-secret");
        tcp.allocate();
        tcp.channelBind(0x4001, PEER);
        tcp.received();

        fx.peerSends(tcp.relayId(), PEER, PAYLOAD);

        assertThat(tcp.received()).singleElement().satisfies(m -> {
            assertThat(m.listenerId()).isEqualTo(TurnFixture.TCP_LISTENER);
            assertThat(m.connectionId()).isEqualTo(5);
        });
        assertThat(fx.counters().relayedPackets(TurnCounters.DIRECTION_PEER_TO_CLIENT, TransportProtocol.TCP))
                .isEqualTo(1);
    }
}
