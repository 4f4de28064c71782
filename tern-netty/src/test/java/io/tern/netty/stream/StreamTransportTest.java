package io.tern.netty.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.relay.TransportSettings;
import io.tern.netty.relay.TurnServerTransport;
import io.tern.netty.relay.UdpIo;
import io.tern.netty.relay.UdpSocketSettings;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AddressAttribute;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.integrity.Fingerprint;
import io.tern.stun.integrity.MessageIntegrity;
import io.tern.stun.message.StunClass;
import io.tern.stun.message.StunMessageDecoder;
import io.tern.stun.message.StunMessageWriter;
import io.tern.stun.message.StunMethod;
import io.tern.testkit.Await;
import io.tern.testkit.TestTls;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.SynchronizedSharedState;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TURN over TCP and TLS on loopback with plain Java clients: relaying, bounds, timeouts, certificate reload. */
class StreamTransportTest {
    private static final String REALM = "tern.test";
    private static final String SECRET = "it-secret";
    private static final long WAIT_MS = 10_000;

    @TempDir
    Path dir;

    private TurnServerTransport server;
    private TlsContextSource tls;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (tls != null) {
            tls.close();
        }
    }

    private void start(StreamSettings streams) throws Exception {
        if (tls == null) {
            tls = TlsContextSource.load(writeCertificate("CN=first", 0));
        }
        int relayBase = 40000 + ThreadLocalRandom.current().nextInt(90) * 100;
        TurnShared shared = new TurnShared(
                CredentialStore.of(REALM, List.of(), List.of(SECRET), ':'),
                PeerAddressPolicy.of(List.of(), List.of(), true, List.of()),
                new byte[32],
                TimeUnit.SECONDS.toNanos(600),
                new SynchronizedSharedState(
                        new AllocationQuota(0, 0, 1000),
                        new RelayPortPool(relayBase, relayBase + 99, new SplittableRandom(1)),
                        null,
                        new AtomicBoolean()));
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        server = TurnServerTransport.start(new TransportSettings(
                List.of(any),
                List.of(any),
                List.of(any),
                tls,
                streams,
                1,
                TurnEngineConfig.builder()
                        .relayAddressV4(TransportAddress.parse("127.0.0.1", 0))
                        .build(),
                shared,
                InstantSource.system(),
                UdpSocketSettings.DEFAULT,
                UdpIo.AUTO));
    }

    private TlsSettings writeCertificate(String subject, long pollMs) throws Exception {
        TestTls.Pem pem = TestTls.selfSigned(dir, subject);
        return new TlsSettings(pem.cert(), pem.key(), null, false, pollMs);
    }

    // ---------------------------------------------------------------------------------------------

    @Test
    void relaysPaddedChannelDataBothWaysOverTcp() throws Exception {
        start(StreamSettings.defaults());
        try (Socket socket = tcp();
                DatagramSocket peer = peer()) {
            relayBothWays(new StreamClient(socket), peer);
        }
    }

    @Test
    void relaysOverTls13And12() throws Exception {
        start(StreamSettings.defaults());
        for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
            try (SSLSocket socket = tlsSocket(protocol);
                    DatagramSocket peer = peer()) {
                assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
                relayBothWays(new StreamClient(socket), peer);
            }
        }
    }

    /** RFC 8656 §12.5: ChannelData of length 0 is relayed as an empty datagram, and an empty datagram comes back as one. */
    @Test
    void relaysZeroLengthChannelDataBothWaysOverTcpAndTls() throws Exception {
        start(StreamSettings.defaults());
        try (Socket tcp = tcp();
                SSLSocket tls = tlsSocket("TLSv1.3")) {
            for (Socket socket : List.of(tcp, tls)) {
                try (DatagramSocket peer = peer()) {
                    StreamClient client = new StreamClient(socket);
                    client.allocate();
                    client.channelBind(TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress()));
                    // Length 0 needs no padding: the 4-byte header is the whole message.
                    client.out.write(new byte[] {0x40, 0x01, 0, 0, 0x40, 0x01, 0, 1, '!', 0, 0, 0});
                    client.out.flush();
                    DatagramPacket atPeer = new DatagramPacket(new byte[1500], 1500);
                    peer.receive(atPeer);
                    assertThat(atPeer.getLength())
                            .as("the empty datagram first")
                            .isZero();
                    peer.receive(atPeer);
                    assertThat(atPeer.getLength()).isEqualTo(1);

                    peer.send(new DatagramPacket(new byte[0], 0, atPeer.getSocketAddress()));
                    assertThat(client.readFrame()).containsExactly(0x40, 0x01, 0, 0);
                }
            }
        }
    }

    @Test
    void closingTheConnectionDeletesItsAllocation() throws Exception {
        start(StreamSettings.defaults());
        try (Socket socket = tcp()) {
            new StreamClient(socket).allocate();
            assertThat(engine().allocationCount()).isEqualTo(1);
        }
        waitFor(() -> engine().allocationCount() == 0 && server.streamConnections() == 0);
    }

    @Test
    void clientThatStopsReadingHasItsDataDroppedWithinABoundedQueue() throws Exception {
        int highWaterMark = 32 * 1024;
        start(StreamSettings.defaults().withWriteWaterMarks(16 * 1024, highWaterMark));
        try (Socket socket = new Socket();
                DatagramSocket peer = peer()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(server.tcpAddresses().get(0));
            socket.setSoTimeout((int) WAIT_MS);
            StreamClient client = new StreamClient(socket);
            TransportAddress relayed = client.allocate();
            client.channelBind(TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress()));
            InetSocketAddress relayAddress = new InetSocketAddress("127.0.0.1", relayed.port());
            byte[] datagram = new byte[1000];
            long deadline = System.currentTimeMillis() + WAIT_MS;
            long largestQueue = 0;
            while (engine().counters().drops(DropReason.CLIENT_BACKPRESSURE) < 100
                    && System.currentTimeMillis() < deadline) {
                for (int i = 0; i < 200; i++) {
                    peer.send(new DatagramPacket(datagram, datagram.length, relayAddress));
                }
                largestQueue = Math.max(largestQueue, server.largestStreamWriteQueueBytes());
            }
            assertThat(engine().counters().drops(DropReason.CLIENT_BACKPRESSURE))
                    .isGreaterThanOrEqualTo(100);
            // The queue stops at the high water mark, plus the one message that crossed it (each
            // counted with its overhead).
            int oneMessage = 1004 + QueuedMessageSize.OVERHEAD_BYTES;
            assertThat(largestQueue).isLessThanOrEqualTo(highWaterMark + oneMessage);
            assertThat(server.streamBufferedBytes()).isLessThanOrEqualTo(highWaterMark + oneMessage);
            // Once the client reads again, relayed data flows: the connection survived.
            client.drainUntilChannelData();
        }
    }

    /**
     * A TLS client that stops reading: what is held for it stays bounded in bytes and in entries.
     * Each drop used to flush the connection again, and a flush of a TLS connection with nothing
     * new queues an empty record with its promise, which no water mark counts: one entry per
     * dropped datagram, for as long as the client stalls.
     */
    @Test
    void stalledTlsReaderHoldsABoundedQueue() throws Exception {
        int highWaterMark = 32 * 1024;
        start(StreamSettings.defaults().withWriteWaterMarks(16 * 1024, highWaterMark));
        SSLContext context = TestTls.trustAll();
        try (Socket plain = new Socket();
                DatagramSocket peer = peer()) {
            plain.setReceiveBufferSize(4096);
            plain.connect(server.tlsAddresses().get(0));
            SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "localhost", 0, true);
            socket.setSoTimeout((int) WAIT_MS);
            socket.startHandshake();
            StreamClient client = new StreamClient(socket);
            TransportAddress relayed = client.allocate();
            client.channelBind(TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress()));
            InetSocketAddress relayAddress = new InetSocketAddress("127.0.0.1", relayed.port());
            byte[] datagram = new byte[1000];
            long deadline = System.currentTimeMillis() + WAIT_MS;
            while (engine().counters().drops(DropReason.CLIENT_BACKPRESSURE) < 5000
                    && System.currentTimeMillis() < deadline) {
                for (int i = 0; i < 200; i++) {
                    peer.send(new DatagramPacket(datagram, datagram.length, relayAddress));
                }
            }
            assertThat(engine().counters().drops(DropReason.CLIENT_BACKPRESSURE))
                    .isGreaterThanOrEqualTo(5000);
            waitFor(() -> server.largestStreamWriteQueueMessages() > 0);
            // Past the mark only what crossed it waits: tens of records, not one per drop. Plaintext
            // written in the turn that crossed the mark is encrypted at its flush, so the bytes may
            // pass the mark by one turn's messages, never more.
            assertThat(server.largestStreamWriteQueueMessages()).isLessThanOrEqualTo(200);
            assertThat(server.largestStreamWriteQueueBytes()).isLessThanOrEqualTo(2L * highWaterMark);
        }
    }

    @Test
    void connectionLimitsPerIpAndInTotal() throws Exception {
        start(StreamSettings.defaults().withConnectionLimits(3, 2));
        try (Socket a = tcp();
                Socket b = tcp();
                Socket refusedByIp = tcp();
                Socket c = tcpFrom("127.0.0.2");
                Socket refusedByTotal = tcpFrom("127.0.0.3")) {
            new StreamClient(a).binding();
            new StreamClient(b).binding();
            new StreamClient(c).binding();
            assertClosedByServer(refusedByIp);
            assertClosedByServer(refusedByTotal);
            assertThat(server.streamCounters().count(StreamEvent.REJECTED_PER_IP_LIMIT))
                    .isEqualTo(1);
            assertThat(server.streamCounters().count(StreamEvent.REJECTED_TOTAL_LIMIT))
                    .isEqualTo(1);
            assertThat(server.streamConnections()).isEqualTo(3);
        }
        waitFor(() -> server.streamConnections() == 0);
        try (Socket again = tcp()) {
            new StreamClient(again).binding();
        }
    }

    @Test
    void idleConnectionsWithoutAllocationAndSlowMessagesAreClosed() throws Exception {
        long idleNs = TimeUnit.MILLISECONDS.toNanos(300);
        start(StreamSettings.defaults().withTimeouts(idleNs, idleNs, TimeUnit.SECONDS.toNanos(10)));
        try (Socket idle = tcp();
                Socket allocated = tcp();
                Socket slow = tcp()) {
            new StreamClient(idle).binding();
            StreamClient withAllocation = new StreamClient(allocated);
            withAllocation.allocate();
            slow.getOutputStream().write(new byte[] {0x00, 0x01});
            assertClosedByServer(idle);
            assertClosedByServer(slow);
            assertThat(server.streamCounters().count(StreamEvent.IDLE_TIMEOUT)).isEqualTo(1);
            assertThat(server.streamCounters().count(StreamEvent.MESSAGE_TIMEOUT))
                    .isEqualTo(1);
            // Idle for longer than the timeout, but it has an allocation: still served. The idle
            // time is the behaviour under test, on the server's real timer.
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(idleNs) * 2);
            withAllocation.binding();
        }
    }

    @Test
    void silentTlsHandshakeTimesOut() throws Exception {
        start(StreamSettings.defaults()
                .withTimeouts(
                        TimeUnit.SECONDS.toNanos(30),
                        TimeUnit.SECONDS.toNanos(10),
                        TimeUnit.MILLISECONDS.toNanos(300)));
        try (Socket socket = new Socket()) {
            socket.connect(server.tlsAddresses().get(0));
            assertClosedByServer(socket);
        }
        waitFor(() -> server.streamCounters().count(StreamEvent.TLS_HANDSHAKE_TIMEOUT) == 1);
    }

    @Test
    void garbageClosesTheConnection() throws Exception {
        start(StreamSettings.defaults());
        try (Socket socket = tcp()) {
            socket.getOutputStream()
                    .write("\u0016\u0003\u0001\u0000\u0000\u0001\u0000\u0001".getBytes(StandardCharsets.ISO_8859_1));
            assertClosedByServer(socket);
        }
        assertThat(server.streamCounters().count(StreamEvent.BAD_FRAMING)).isEqualTo(1);
    }

    @Test
    void newHandshakesGetAReloadedCertificateWhileOldSessionsGoOn() throws Exception {
        tls = TlsContextSource.load(writeCertificate("CN=first", 50));
        start(StreamSettings.defaults());
        try (SSLSocket old = tlsSocket("TLSv1.3")) {
            assertThat(subject(old)).isEqualTo("CN=first");
            StreamClient oldClient = new StreamClient(old);
            oldClient.binding();

            writeCertificate("CN=second", 50);
            waitFor(() -> tls.reloads() >= 1);
            try (SSLSocket fresh = tlsSocket("TLSv1.3")) {
                assertThat(subject(fresh)).isEqualTo("CN=second");
                new StreamClient(fresh).binding();
            }
            oldClient.binding();

            // A broken file keeps the current certificate.
            Files.writeString(dir.resolve("key.pem"), "not a key");
            assertThat(tls.reload()).isFalse();
            try (SSLSocket third = tlsSocket("TLSv1.3")) {
                assertThat(subject(third)).isEqualTo("CN=second");
            }
        }
    }

    // ---------------------------------------------------------------------------------------------

    private TurnEngine engine() {
        return server.engines().get(0);
    }

    private void relayBothWays(StreamClient client, DatagramSocket peer) throws Exception {
        TransportAddress relayed = client.allocate();
        client.channelBind(TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress()));
        // 5 bytes of data: padded to 12 on the stream, and a message right behind it in the same write.
        byte[] channelData = {0x40, 0x01, 0, 5, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0x40, 0x01, 0, 2, 'h', 'i', 0, 0};
        client.out.write(channelData);
        client.out.flush();
        DatagramPacket atPeer = new DatagramPacket(new byte[1500], 1500);
        peer.receive(atPeer);
        assertThat(new String(atPeer.getData(), 0, atPeer.getLength(), StandardCharsets.US_ASCII))
                .isEqualTo("hello");
        assertThat(atPeer.getPort()).isEqualTo(relayed.port());
        peer.receive(atPeer);
        assertThat(new String(atPeer.getData(), 0, atPeer.getLength(), StandardCharsets.US_ASCII))
                .isEqualTo("hi");

        byte[] reply = "world".getBytes(StandardCharsets.US_ASCII);
        peer.send(new DatagramPacket(reply, reply.length, atPeer.getSocketAddress()));
        assertThat(client.readFrame()).containsExactly(0x40, 0x01, 0, 5, 'w', 'o', 'r', 'l', 'd', 0, 0, 0);
        client.binding();
    }

    private Socket tcp() throws IOException {
        Socket socket = new Socket();
        socket.connect(server.tcpAddresses().get(0));
        socket.setSoTimeout((int) WAIT_MS);
        return socket;
    }

    private Socket tcpFrom(String localIp) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(localIp, 0));
        socket.connect(server.tcpAddresses().get(0));
        socket.setSoTimeout((int) WAIT_MS);
        return socket;
    }

    private SSLSocket tlsSocket(String protocol) throws Exception {
        SSLSocket socket = (SSLSocket) TestTls.trustAll().getSocketFactory().createSocket();
        socket.connect(server.tlsAddresses().get(0));
        socket.setSoTimeout((int) WAIT_MS);
        socket.setEnabledProtocols(new String[] {protocol});
        socket.startHandshake();
        return socket;
    }

    private static String subject(SSLSocket socket) throws Exception {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                .getSubjectX500Principal()
                .getName();
    }

    private static DatagramSocket peer() throws IOException {
        DatagramSocket peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        peer.setSoTimeout((int) WAIT_MS);
        return peer;
    }

    private static void assertClosedByServer(Socket socket) throws IOException {
        try {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server did not close the connection within " + WAIT_MS + " ms", e);
        } catch (java.net.SocketException reset) {
            // closed by the server with a reset: also closed
        }
    }

    private static void waitFor(BooleanSupplier condition) throws Exception {
        Await.await("condition", Duration.ofMillis(WAIT_MS), Duration.ofMillis(10), condition::getAsBoolean);
    }

    /** A TURN client over a stream: STUN requests with REST-secret credentials, messages framed as on the wire. */
    private static final class StreamClient {
        private final DataInputStream in;
        private final OutputStream out;
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1500]);
        private final StunMessageWriter writer =
                new StunMessageWriter(new MessageIntegrity(2048), new Fingerprint(2048));
        private final String username = (System.currentTimeMillis() / 1000 + 3600) + ":alice";
        private final byte[] key;
        private byte[] nonce;

        StreamClient(Socket socket) throws IOException {
            this.in = new DataInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
            byte[] password = CredentialStore.restPassword(
                            SECRET.getBytes(StandardCharsets.UTF_8), username.getBytes(StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            this.key = MessageIntegrity.longTermKeyMd5(
                    username.getBytes(StandardCharsets.UTF_8), REALM.getBytes(StandardCharsets.UTF_8), password);
        }

        void binding() throws IOException {
            assertThat(request(StunMethod.BINDING, w -> {}).messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
        }

        TransportAddress allocate() throws IOException {
            StunMessageDecoder challenge =
                    request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
            assertThat(challenge.messageClass()).isEqualTo(StunClass.ERROR_RESPONSE);
            nonce = new byte[challenge.valueLength(AttributeType.NONCE)];
            challenge.copyValue(AttributeType.NONCE, nonce);
            StunMessageDecoder allocated = request(StunMethod.ALLOCATE, w -> {
                w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24);
                auth(w);
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
            return relayed;
        }

        void channelBind(TransportAddress peer) throws IOException {
            StunMessageDecoder bound = request(StunMethod.CHANNEL_BIND, w -> {
                w.putInt(AttributeType.CHANNEL_NUMBER, 0x4001 << 16);
                w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
                auth(w);
            });
            assertThat(bound.messageClass()).isEqualTo(StunClass.SUCCESS_RESPONSE);
        }

        private void auth(StunMessageWriter w) {
            w.putBytes(AttributeType.USERNAME, username.getBytes(StandardCharsets.UTF_8));
            w.putBytes(AttributeType.REALM, REALM.getBytes(StandardCharsets.UTF_8));
            w.putBytes(AttributeType.NONCE, nonce);
            w.putMessageIntegrity(key);
        }

        StunMessageDecoder request(int method, Consumer<StunMessageWriter> attributes) throws IOException {
            writer.start(
                    buffer,
                    0,
                    StunClass.messageType(method, StunClass.REQUEST),
                    ThreadLocalRandom.current().nextInt(),
                    ThreadLocalRandom.current().nextLong());
            attributes.accept(writer);
            out.write(buffer.byteArray(), 0, writer.length());
            out.flush();
            byte[] frame;
            do {
                frame = readFrame();
            } while ((frame[0] & 0xC0) != 0);
            StunMessageDecoder decoder = new StunMessageDecoder();
            assertThat(decoder.decode(new UnsafeBuffer(frame), 0, frame.length)).isEqualTo(StunMessageDecoder.OK);
            return decoder;
        }

        /** One STUN message or padded ChannelData, as framed on the stream. */
        byte[] readFrame() throws IOException {
            byte[] header = new byte[4];
            in.readFully(header);
            int length = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
            int total = (header[0] & 0xC0) == 0x40 ? (4 + length + 3) & ~3 : 20 + length;
            byte[] frame = Arrays.copyOf(header, total);
            in.readFully(frame, 4, total - 4);
            return frame;
        }

        /** Reads until a ChannelData message arrives after the backlog. */
        void drainUntilChannelData() throws IOException {
            try {
                for (int i = 0; i < 100_000; i++) {
                    byte[] frame = readFrame();
                    if ((frame[0] & 0xC0) == 0x40) {
                        return;
                    }
                }
            } catch (EOFException e) {
                throw new AssertionError("connection closed", e);
            }
            throw new AssertionError("no ChannelData");
        }
    }
}
