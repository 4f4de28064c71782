package io.tern.netty.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.SynchronizedSharedState;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The UDP transport and the engine together, over loopback, with a plain Java client. */
class UdpRelayLoopbackTest {
    private static final String REALM = "tern.test";
    private static final String SECRET = "it-secret";

    private TurnServerTransport server;
    private InetSocketAddress serverAddress;

    @BeforeEach
    void start() throws Exception {
        TurnShared shared = new TurnShared(
                CredentialStore.of(REALM, List.of(), List.of(SECRET), ':'),
                PeerAddressPolicy.of(List.of(), List.of(), true, List.of()),
                new byte[32],
                TimeUnit.SECONDS.toNanos(600),
                new SynchronizedSharedState(
                        new AllocationQuota(0, 0, 1000),
                        new RelayPortPool(50000, 50999, new SplittableRandom(1)),
                        null,
                        new AtomicBoolean()));
        server = TurnServerTransport.start(TransportSettings.udp(
                List.of(new InetSocketAddress("127.0.0.1", 0)),
                1,
                TurnEngineConfig.builder()
                        .relayAddressV4(TransportAddress.parse("127.0.0.1", 0))
                        .build(),
                shared));
        serverAddress = server.udpAddresses().get(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void relaysChannelDataBothWaysAfterAuthenticatedAllocation() throws Exception {
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
                DatagramSocket peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(10000);
            peer.setSoTimeout(10000);
            TransportAddress relayed = allocateAndBindChannel(client, peer, 0x4001);

            byte[] channelData = {0x40, 0x01, 0, 5, 'h', 'e', 'l', 'l', 'o'};
            client.send(new DatagramPacket(channelData, channelData.length, serverAddress));
            DatagramPacket atPeer = new DatagramPacket(new byte[1500], 1500);
            peer.receive(atPeer);
            assertThat(new String(atPeer.getData(), 0, atPeer.getLength(), StandardCharsets.US_ASCII))
                    .isEqualTo("hello");
            assertThat(atPeer.getPort()).isEqualTo(relayed.port());

            byte[] reply = "world!".getBytes(StandardCharsets.US_ASCII);
            peer.send(new DatagramPacket(reply, reply.length, atPeer.getSocketAddress()));
            DatagramPacket atClient = new DatagramPacket(new byte[1500], 1500);
            client.receive(atClient);
            byte[] got = java.util.Arrays.copyOf(atClient.getData(), atClient.getLength());
            assertThat(got).containsExactly(0x40, 0x01, 0, 6, 'w', 'o', 'r', 'l', 'd', '!');
        }
    }

    /**
     * RFC 8656 §12.5: ChannelData of length 0 (unpadded, as over UDP) reaches the peer as an empty
     * datagram, in order with the data around it; an empty datagram from the peer comes back as
     * ChannelData of length 0.
     */
    @Test
    void relaysZeroLengthChannelDataBothWays() throws Exception {
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
                DatagramSocket peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(10000);
            peer.setSoTimeout(10000);
            TransportAddress relayed = allocateAndBindChannel(client, peer, 0x4003);
            byte[][] sent = {{0x40, 0x03, 0, 1, 'a'}, {0x40, 0x03, 0, 0}, {0x40, 0x03, 0, 1, 'b'}};
            for (byte[] channelData : sent) {
                client.send(new DatagramPacket(channelData, channelData.length, serverAddress));
            }
            DatagramPacket atPeer = new DatagramPacket(new byte[1500], 1500);
            int[] lengths = new int[3];
            for (int i = 0; i < 3; i++) {
                peer.receive(atPeer);
                lengths[i] = atPeer.getLength();
            }
            assertThat(lengths).containsExactly(1, 0, 1);

            peer.send(new DatagramPacket(new byte[0], 0, new InetSocketAddress("127.0.0.1", relayed.port())));
            DatagramPacket atClient = new DatagramPacket(new byte[1500], 1500);
            client.receive(atClient);
            assertThat(java.util.Arrays.copyOf(atClient.getData(), atClient.getLength()))
                    .containsExactly(0x40, 0x03, 0, 0);
        }
    }

    /**
     * Bursts of datagrams, faster than one read per datagram, cover the batched receive (several
     * datagrams per buffer, each relayed in place after the one before it) and the flush held back
     * to the end of the loop's turn. Lengths straddle the in-place limit (2048), the copied ones
     * just above it, and the first dropped length (2052).
     */
    @Test
    void relaysBurstsOfMixedLengthsIntactAndInOrderBothWays() throws Exception {
        int[] peerLengths = {1, 160, 1200, 2047, 2048, 2049, 2051, 2052, 3000, 512};
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
                DatagramSocket peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(10000);
            peer.setSoTimeout(10000);
            TransportAddress relayed = allocateAndBindChannel(client, peer, 0x4002);
            InetSocketAddress relayAddress = new InetSocketAddress("127.0.0.1", relayed.port());
            DatagramPacket in = new DatagramPacket(new byte[4096], 4096);

            for (int burst = 0; burst < 5; burst++) {
                int sent = 0;
                for (int i = 0; i < 24; i++) {
                    byte[] payload = pattern(burst * 100 + i, 1 + (i * 97) % 2048);
                    byte[] datagram = new byte[4 + payload.length];
                    datagram[0] = 0x40;
                    datagram[1] = 0x02;
                    datagram[2] = (byte) (payload.length >> 8);
                    datagram[3] = (byte) payload.length;
                    System.arraycopy(payload, 0, datagram, 4, payload.length);
                    client.send(new DatagramPacket(datagram, datagram.length, serverAddress));
                    sent++;
                }
                for (int i = 0; i < sent; i++) {
                    peer.receive(in);
                    assertThat(java.util.Arrays.copyOf(in.getData(), in.getLength()))
                            .as("burst %d datagram %d", burst, i)
                            .isEqualTo(pattern(burst * 100 + i, 1 + (i * 97) % 2048));
                }

                int expected = 0;
                for (int i = 0; i < 24; i++) {
                    int length = peerLengths[i % peerLengths.length];
                    peer.send(new DatagramPacket(pattern(burst * 1000 + i, length), length, relayAddress));
                }
                for (int i = 0; i < 24; i++) {
                    int length = peerLengths[i % peerLengths.length];
                    if (length >= 2052) {
                        continue;
                    }
                    client.receive(in);
                    byte[] got = java.util.Arrays.copyOf(in.getData(), in.getLength());
                    assertThat(got.length).as("burst %d datagram %d", burst, i).isEqualTo(4 + length);
                    assertThat(got[0]).isEqualTo((byte) 0x40);
                    assertThat(got[1]).isEqualTo((byte) 0x02);
                    assertThat(((got[2] & 0xFF) << 8) | (got[3] & 0xFF)).isEqualTo(length);
                    assertThat(java.util.Arrays.copyOfRange(got, 4, got.length))
                            .as("burst %d datagram %d", burst, i)
                            .isEqualTo(pattern(burst * 1000 + i, length));
                    expected++;
                }
                assertThat(expected).isEqualTo(20);
            }
            assertThat(server.engines().get(0).counters().drops(DropReason.OVERSIZED))
                    .isEqualTo(5 * 4);
        }
    }

    private static byte[] pattern(int seed, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    @Test
    void answersBindingWithTheClientsAddress() throws Exception {
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(10000);
            StunMessageDecoder response = new Client(client).request(StunMethod.BINDING, w -> {});
            assertThat(response.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
            TransportAddress mapped = new TransportAddress();
            AddressAttribute.decodeXor(
                    response.buffer(),
                    0,
                    response.valueOffset(AttributeType.XOR_MAPPED_ADDRESS),
                    response.valueLength(AttributeType.XOR_MAPPED_ADDRESS),
                    mapped,
                    new byte[16]);
            assertThat(mapped.port()).isEqualTo(client.getLocalPort());
        }
    }

    /** Allocates on {@code client} with REST credentials and binds {@code channel} to {@code peer}. */
    private TransportAddress allocateAndBindChannel(DatagramSocket client, DatagramSocket peer, int channel)
            throws Exception {
        Client c = new Client(client);
        String username = (System.currentTimeMillis() / 1000 + 3600) + ":alice";
        byte[] password = CredentialStore.restPassword(
                        SECRET.getBytes(StandardCharsets.UTF_8), username.getBytes(StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
        byte[] key = MessageIntegrity.longTermKeyMd5(
                username.getBytes(StandardCharsets.UTF_8), REALM.getBytes(StandardCharsets.UTF_8), password);

        StunMessageDecoder challenge =
                c.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
        assertThat(challenge.messageClass()).isEqualTo(StunClass.ERROR_RESPONSE);
        byte[] nonce = new byte[challenge.valueLength(AttributeType.NONCE)];
        challenge.copyValue(AttributeType.NONCE, nonce);

        StunMessageDecoder allocated = c.request(StunMethod.ALLOCATE, w -> {
            w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);
            auth(w, username, nonce, key);
        });
        assertThat(allocated.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
        TransportAddress relayed = new TransportAddress();
        assertThat(AddressAttribute.decodeXor(
                        allocated.buffer(),
                        0,
                        allocated.valueOffset(AttributeType.XOR_RELAYED_ADDRESS),
                        allocated.valueLength(AttributeType.XOR_RELAYED_ADDRESS),
                        relayed,
                        new byte[16]))
                .isTrue();
        assertThat(relayed.port()).isBetween(50000, 50999);

        TransportAddress peerAddress = TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress());
        StunMessageDecoder bound = c.request(StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, channel << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peerAddress);
            auth(w, username, nonce, key);
        });
        assertThat(bound.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);

        return relayed;
    }

    private static void auth(StunMessageWriter w, String username, byte[] nonce, byte[] key) {
        w.putBytes(AttributeType.USERNAME, username.getBytes(StandardCharsets.UTF_8));
        w.putBytes(AttributeType.REALM, REALM.getBytes(StandardCharsets.UTF_8));
        w.putBytes(AttributeType.NONCE, nonce);
        w.putMessageIntegrity(key);
    }

    private final class Client {
        private final DatagramSocket socket;
        private final UnsafeBuffer out = new UnsafeBuffer(new byte[1500]);
        private final StunMessageWriter writer =
                new StunMessageWriter(new MessageIntegrity(2048), new Fingerprint(2048));

        Client(DatagramSocket socket) {
            this.socket = socket;
        }

        StunMessageDecoder request(int method, java.util.function.Consumer<StunMessageWriter> attributes)
                throws Exception {
            writer.start(
                    out,
                    0,
                    StunClass.messageType(method, StunClass.REQUEST),
                    ThreadLocalRandom.current().nextInt(),
                    ThreadLocalRandom.current().nextLong());
            attributes.accept(writer);
            socket.send(new DatagramPacket(out.byteArray(), writer.length(), serverAddress));
            DatagramPacket in = new DatagramPacket(new byte[1500], 1500);
            socket.receive(in);
            StunMessageDecoder decoder = new StunMessageDecoder();
            assertThat(decoder.decode(
                            new UnsafeBuffer(java.util.Arrays.copyOf(in.getData(), in.getLength())), 0, in.getLength()))
                    .isEqualTo(StunMessageDecoder.OK);
            return decoder;
        }
    }
}
