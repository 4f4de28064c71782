package io.tern.netty.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.tern.netty.EventLoopFlush;
import io.tern.netty.NettyTransports;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TurnEngine;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The shard's UDP sockets on both paths, over loopback with plain Java sockets on the other side:
 * what recvmmsg's headers say (length, MSG_TRUNC, the sender's address of either family) reaches
 * the engine's input exactly, and what is sent arrives whole, in order, at the address given. Both
 * implementations must agree; FFM is checked where it can run (JDK 22+ on Linux), Netty always.
 */
class UdpSocketsMarshallingTest {
    private static final int V4 = 0;
    private static final int V6 = 1;
    private static final InetAddress LOOPBACK_V4 = InetAddress.getLoopbackAddress();
    private static final long WAIT_MS = 2000;

    private static EventLoopGroup group;
    private static EventLoop loop;
    private static final Sockets[] paths = new Sockets[2];

    /** One implementation with a listener of each family and what it delivered. */
    private static final class Sockets implements UdpInput {
        final UdpIo io;
        UdpSockets sockets;
        final InetSocketAddress[] listeners = new InetSocketAddress[2];
        final BlockingQueue<Object[]> received = new LinkedBlockingQueue<>();
        final BlockingQueue<DropReason> drops = new LinkedBlockingQueue<>();

        Sockets(UdpIo io) {
            this.io = io;
        }

        @Override
        public void onClientDatagram(
                int listenerId,
                TransportAddress sender,
                ByteBuf inbound,
                MutableDirectBuffer data,
                int offset,
                int length) {
            byte[] bytes = new byte[length];
            data.getBytes(offset, bytes);
            received.add(new Object[] {"client", listenerId, sender.copy(), bytes, offset});
        }

        @Override
        public void onPeerDatagram(
                int relayId,
                TransportAddress sender,
                ByteBuf inbound,
                MutableDirectBuffer data,
                int offset,
                int length) {
            byte[] bytes = new byte[length];
            data.getBytes(offset, bytes);
            // The headroom before a peer datagram is the engine's to write its ChannelData header in.
            data.putInt(offset - TurnEngine.PEER_PACKET_HEADROOM, 0x40000000 | length);
            received.add(new Object[] {"peer", relayId, sender.copy(), bytes, offset});
        }

        @Override
        public void onRelayReadDone(int relayId) {
            received.add(new Object[] {"relay read done", relayId});
        }

        @Override
        public void drop(DropReason reason) {
            drops.add(reason);
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        group = NettyTransports.newGroup(1, "marshalling-test");
        loop = group.next();
        for (UdpIo io : new UdpIo[] {UdpIo.NETTY, UdpIo.FFM}) {
            if (io == UdpIo.FFM && UdpIo.ffmUnavailableReason() != null) {
                continue;
            }
            Sockets s = new Sockets(io);
            onLoop(() -> {
                s.sockets = io.newSockets(loop, new EventLoopFlush(loop), UdpSocketSettings.DEFAULT, s);
                s.listeners[V4] = s.sockets.bindListener(V4, freePort(LOOPBACK_V4));
                s.listeners[V6] = s.sockets.bindListener(V6, freePort(InetAddress.getByName("::1")));
                return null;
            });
            paths[io.ordinal()] = s;
        }
    }

    @AfterContainer
    static void stop() throws Exception {
        for (Sockets s : paths) {
            if (s != null) {
                onLoop(() -> {
                    s.sockets.closeAll();
                    return null;
                });
            }
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }

    /**
     * A port nothing is bound to now. Listeners take SO_REUSEPORT, and with port 0 the kernel may
     * hand two such sockets of one user the same port and split the datagrams between them.
     */
    private static InetSocketAddress freePort(InetAddress ip) throws Exception {
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(ip, 0))) {
            return new InetSocketAddress(ip, probe.getLocalPort());
        }
    }

    private static <T> T onLoop(Callable<T> task) throws Exception {
        return loop.submit(task).get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @Provide
    Arbitrary<UdpIo> path() {
        return Arbitraries.of(UdpIo.NETTY, UdpIo.FFM);
    }

    @Provide
    Arbitrary<byte[]> datagram() {
        // Up to well past the 2052 bytes a receive slot holds, with the edges often.
        return Arbitraries.bytes()
                .array(byte[].class)
                .ofMinSize(0)
                .ofMaxSize(3000)
                .edgeCases(c -> c.add(new byte[2052], new byte[2053], new byte[2047], new byte[2048]));
    }

    private static Sockets sockets(UdpIo io) {
        Sockets s = paths[io.ordinal()];
        assumeThat(s)
                .as("udp-io %s available: %s", io, UdpIo.ffmUnavailableReason())
                .isNotNull();
        return s;
    }

    @Property(tries = 300)
    void aReceivedDatagramReachesTheInputWithItsLengthAndSenderOrIsDroppedWhenCut(
            @ForAll("path") UdpIo io, @ForAll("datagram") byte[] payload, @ForAll boolean ipv6) throws Exception {
        Sockets s = sockets(io);
        // Both paths drop what filled a receive slot (2052 bytes), which may have been cut.
        int largestWhole = RelayShard.DATAGRAM_BYTES + TurnEngine.PEER_PACKET_HEADROOM - 1;
        InetAddress loopback = ipv6 ? InetAddress.getByName("::1") : LOOPBACK_V4;
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            client.send(new DatagramPacket(payload, payload.length, s.listeners[ipv6 ? V6 : V4]));
            if (payload.length > largestWhole) {
                assertThat(s.drops.poll(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(DropReason.OVERSIZED);
                assertThat(s.received).isEmpty();
                return;
            }
            Object[] got = s.received.poll(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(got)
                    .as("delivered %d bytes (drops %s)", payload.length, s.drops)
                    .isNotNull();
            assertThat(got[0]).isEqualTo("client");
            assertThat(got[1]).isEqualTo(ipv6 ? V6 : V4);
            assertThat(got[2]).isEqualTo(TransportAddress.of((InetSocketAddress) client.getLocalSocketAddress()));
            assertThat((byte[]) got[3]).isEqualTo(payload);
            assertThat(s.drops).isEmpty();
        }
    }

    @Property(tries = 200)
    void whatIsSentArrivesWholeInOrderAtTheRecipient(
            @ForAll("path") UdpIo io, @ForAll("datagram") byte[] payload, @ForAll boolean ipv6) throws Exception {
        Sockets s = sockets(io);
        InetAddress loopback = ipv6 ? InetAddress.getByName("::1") : LOOPBACK_V4;
        // Netty does not write empty datagrams through a listener (the engine never sends one to a client).
        assumeThat(payload.length > 0 || io == UdpIo.FFM).isTrue();
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            client.setSoTimeout((int) WAIT_MS);
            // 70 datagrams of up to 3000 bytes at once: more than the default receive buffer holds.
            client.setReceiveBufferSize(4 << 20);
            TransportAddress recipient = TransportAddress.of((InetSocketAddress) client.getLocalSocketAddress());
            // Past a send batch (64), so a flush happens in the middle, and the turn's end flushes the rest.
            int count = 70;
            onLoop(() -> {
                for (int i = 0; i < count; i++) {
                    byte[] numbered = numbered(payload, i);
                    s.sockets.sendToClient(
                            ipv6 ? V6 : V4, recipient, new UnsafeBuffer(numbered), 0, numbered.length, null);
                }
                return null;
            });
            byte[] buffer = new byte[4096];
            for (int i = 0; i < count; i++) {
                DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
                client.receive(packet);
                assertThat(packet.getSocketAddress()).isEqualTo(s.listeners[ipv6 ? V6 : V4]);
                assertThat(Arrays.copyOf(buffer, packet.getLength())).isEqualTo(numbered(payload, i));
            }
        }
    }

    /** {@code payload} with its first byte replaced by {@code i}, so the order shows. */
    private static byte[] numbered(byte[] payload, int i) {
        byte[] copy = payload.clone();
        if (copy.length > 0) {
            copy[0] = (byte) i;
        }
        return copy;
    }

    @Property(tries = 20)
    void aRelaySocketDeliversPeerDatagramsWithHeadroomAndSendsLongOnesWhole(
            @ForAll("path") UdpIo io, @ForAll boolean ipv6) throws Exception {
        Sockets s = sockets(io);
        InetAddress loopback = ipv6 ? InetAddress.getByName("::1") : LOOPBACK_V4;
        int relayId = 1000 + (ipv6 ? 1 : 0);
        int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            port = probe.getLocalPort();
        }
        TransportAddress relay = TransportAddress.of(new InetSocketAddress(loopback, port));
        assertThat(onLoop(() -> s.sockets.openRelay(relayId, relay))).isTrue();
        try (DatagramSocket peer = new DatagramSocket(new InetSocketAddress(loopback, 0))) {
            peer.setSoTimeout((int) WAIT_MS);
            byte[] payload = new byte[1200];
            Arrays.fill(payload, (byte) 7);
            peer.send(new DatagramPacket(payload, payload.length, relay.toInetSocketAddress()));
            Object[] got = s.received.poll(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(got).isNotNull();
            assertThat(got[0]).isEqualTo("peer");
            assertThat(got[1]).isEqualTo(relayId);
            assertThat((byte[]) got[3]).isEqualTo(payload);
            assertThat((int) got[4]).isGreaterThanOrEqualTo(TurnEngine.PEER_PACKET_HEADROOM);
            Object[] done = s.received.poll(WAIT_MS, TimeUnit.MILLISECONDS);
            assertThat(done)
                    .as("the end of the relay socket's read is reported")
                    .isNotNull();
            assertThat(done[0]).isEqualTo("relay read done");
            assertThat(done[1]).isEqualTo(relayId);

            // flushQueued sends within the running task, before the end-of-turn flush would run:
            // the peer receives while the loop is still inside the task.
            byte[] early = new byte[160];
            Arrays.fill(early, (byte) 5);
            TransportAddress peerAddress = TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress());
            int receivedInTask = onLoop(() -> {
                s.sockets.sendToPeer(relayId, peerAddress, new UnsafeBuffer(early), 0, early.length, null);
                s.sockets.flushQueued();
                DatagramPacket inTask = new DatagramPacket(new byte[2048], 2048);
                peer.receive(inTask);
                return inTask.getLength();
            });
            assertThat(receivedInTask).isEqualTo(early.length);

            // A datagram from a TCP client may be longer than a send slot: it goes out alone, whole.
            byte[] large = new byte[9000];
            Arrays.fill(large, (byte) 3);
            TransportAddress to = TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress());
            onLoop(() -> {
                s.sockets.sendToPeer(relayId, to, new UnsafeBuffer(large), 0, large.length, null);
                return null;
            });
            DatagramPacket packet = new DatagramPacket(new byte[65536], 65536);
            peer.receive(packet);
            assertThat(packet.getLength()).isEqualTo(large.length);
            assertThat(packet.getSocketAddress()).isEqualTo(relay.toInetSocketAddress());
        } finally {
            assertThat(onLoop(() -> s.sockets.closeRelay(relayId))).isTrue();
        }
        assertThat(onLoop(() -> s.sockets.closeRelay(relayId))).isFalse();
    }
}
