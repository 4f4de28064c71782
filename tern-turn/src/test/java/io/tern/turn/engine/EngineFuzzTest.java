package io.tern.turn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import io.tern.turn.testing.StunResponse;
import io.tern.turn.testing.TurnFixture;
import io.tern.turn.testing.TurnTestClient;
import java.nio.ByteOrder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Whatever arrives, from a client or a peer, the engine neither throws nor stops answering. Three
 * sources: raw random bytes; valid requests with bytes flipped; and requests whose attributes are
 * random but which are correctly signed, so the garbage reaches the method handlers.
 */
class EngineFuzzTest {
    private static final TransportAddress PEER = TransportAddress.parse("203.0.113.5", 5000);
    private static final int[] TYPES = {
        AttributeType.LIFETIME,
        AttributeType.XOR_PEER_ADDRESS,
        AttributeType.DATA,
        AttributeType.CHANNEL_NUMBER,
        AttributeType.REQUESTED_ADDRESS_FAMILY,
        AttributeType.ADDITIONAL_ADDRESS_FAMILY,
        AttributeType.EVEN_PORT,
        AttributeType.REQUESTED_TRANSPORT,
        AttributeType.RESERVATION_TOKEN,
        AttributeType.DONT_FRAGMENT,
        AttributeType.PASSWORD_ALGORITHM,
        AttributeType.PASSWORD_ALGORITHMS,
        AttributeType.USERHASH,
        0x7F01,
        0xC001,
    };
    private static final int[] METHODS = {
        StunMethod.ALLOCATE,
        StunMethod.REFRESH,
        StunMethod.CREATE_PERMISSION,
        StunMethod.CHANNEL_BIND,
        StunMethod.BINDING,
    };

    record Attr(int type, byte[] value) {}

    /** A fixture with a live allocation, a permission and a channel, so every path has state to hit. */
    private static TurnTestClient setUp() {
        TurnFixture fx = TurnFixture.create();
        TurnTestClient client = fx.alice("198.51.100.7", 40001).allocated();
        client.channelBind(0x4000, PEER);
        return client;
    }

    private static void assertStillServes(TurnTestClient client) {
        StunResponse answer = client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}));
        assertThat(answer).isNotNull();
        assertThat(answer.isSuccess()).isTrue();
        // A mutation that leaves a Refresh with LIFETIME 0 intact legitimately deletes the allocation.
        if (client.fx.engine.allocationCount() == 0) {
            assertThat(client.allocate().isSuccess()).isTrue();
        }
        assertThat(client.refresh().isSuccess()).isTrue();
    }

    private static void feed(TurnTestClient client, byte[] bytes) {
        int allocationsBefore = client.fx.engine.allocationCount();
        client.deliver(bytes);
        if (allocationsBefore > 0 && client.fx.engine.allocationCount() > 0) {
            client.fx.peerSends(client.relayId(), PEER, bytes);
        }
    }

    @Property(tries = 200)
    void randomBytesNeverBreakTheEngine(@ForAll @Size(max = 40) List<@Size(max = 300) byte[]> packets) {
        TurnTestClient client = setUp();
        for (byte[] packet : packets) {
            feed(client, packet);
        }
        assertStillServes(client);
    }

    @Property(tries = 200)
    void mutatedValidMessagesNeverBreakTheEngine(
            @ForAll("validMessageIndex") int which,
            @ForAll @Size(min = 1, max = 8) List<@IntRange(max = 1000) Integer> positions,
            @ForAll @Size(min = 8, max = 8) List<Byte> values) {
        TurnTestClient client = setUp();
        byte[] message = validMessages(client).get(which);
        for (int i = 0; i < positions.size(); i++) {
            message[positions.get(i) % message.length] = values.get(i % values.size());
        }
        feed(client, message);
        feed(client, message);
        assertStillServes(client);
    }

    @Property(tries = 300)
    void signedRequestsWithRandomAttributesNeverBreakTheEngine(
            @ForAll("method") int method, @ForAll("attributes") List<Attr> attributes) {
        TurnTestClient client = setUp();
        StunResponse answer = client.request(method, w -> {
            for (Attr a : attributes) {
                w.putBytes(a.type(), a.value());
            }
        });
        assertThat(answer).as("a signed request is always answered").isNotNull();
        client.deliver(client.indication(StunMethod.SEND, w -> {
            for (Attr a : attributes) {
                w.putBytes(a.type(), a.value());
            }
        }));
        StunResponse binding = client.exchange(client.unsignedRequest(StunMethod.BINDING, w -> {}));
        assertThat(binding.isSuccess()).isTrue();
    }

    private static List<byte[]> validMessages(TurnTestClient client) {
        byte[] channelData = TurnTestClient.channelDataBytes(0x4000, 4, new byte[] {1, 2, 3, 4});
        UnsafeBuffer b = new UnsafeBuffer(channelData);
        b.putShort(0, (short) 0x4000, ByteOrder.BIG_ENDIAN);
        return List.of(
                client.signedRequest(StunMethod.ALLOCATE, TurnTestClient.udpTransport()),
                client.signedRequest(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 0)),
                client.signedRequest(
                        StunMethod.CREATE_PERMISSION, w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER)),
                client.signedRequest(
                        StunMethod.CHANNEL_BIND,
                        w -> w.putInt(AttributeType.CHANNEL_NUMBER, 0x4001 << 16)
                                .putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER)),
                client.indication(
                        StunMethod.SEND,
                        w -> w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, PEER)
                                .putBytes(AttributeType.DATA, new byte[] {1, 2, 3})),
                client.unsignedRequest(StunMethod.BINDING, w -> {}),
                channelData);
    }

    @Provide
    Arbitrary<Integer> validMessageIndex() {
        return Arbitraries.integers().between(0, 6);
    }

    @Provide
    Arbitrary<Integer> method() {
        return Arbitraries.of(METHODS[0], METHODS[1], METHODS[2], METHODS[3], METHODS[4]);
    }

    @Provide
    Arbitrary<List<Attr>> attributes() {
        Arbitrary<Integer> type =
                Arbitraries.integers().between(0, TYPES.length - 1).map(i -> TYPES[i]);
        Arbitrary<byte[]> value = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(24),
                Arbitraries.bytes().array(byte[].class).ofSize(4),
                Arbitraries.bytes().array(byte[].class).ofSize(8),
                Arbitraries.bytes().array(byte[].class).ofSize(20));
        return Combinators.combine(type, value).as(Attr::new).list().ofMaxSize(6);
    }
}
