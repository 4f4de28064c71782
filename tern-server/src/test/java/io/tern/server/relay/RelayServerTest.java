package io.tern.server.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.netty.stream.StreamEvent;
import io.tern.netty.stream.StreamSettings;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.metrics.RelayFixture;
import io.tern.server.metrics.TurnClient;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Options that reach the transport and the engine only through {@link RelayServer}'s wiring. */
class RelayServerTest {
    private static final int SOCKET_TIMEOUT_MS = 5000;
    /** Inside RFC 5766's channel range, outside RFC 8656's. */
    private static final int RFC5766_ONLY_CHANNEL = 0x5000;

    @Test
    void defaultConfigGivesTheTransportsDefaultStreamSettings() {
        TurnServerConfig config = new TurnServerConfigAssembler(message -> {}).assemble(List.of(), List.of());
        assertThat(RelayServer.streamSettings(config)).isEqualTo(StreamSettings.defaults());
    }

    @Test
    void streamOptionsBecomeStreamSettings() throws Exception {
        try (RelayFixture relay = RelayFixture.start(
                "max-tcp-connections",
                "100",
                "max-tcp-connections-per-ip",
                "7",
                "tcp-idle-timeout",
                "11",
                "tcp-message-timeout",
                "12",
                "tls-handshake-timeout",
                "13",
                "tcp-write-low-water-mark",
                "1000",
                "tcp-write-high-water-mark",
                "2000")) {
            assertThat(RelayServer.streamSettings(relay.config))
                    .isEqualTo(new StreamSettings(
                            100,
                            7,
                            TimeUnit.SECONDS.toNanos(11),
                            TimeUnit.SECONDS.toNanos(12),
                            TimeUnit.SECONDS.toNanos(13),
                            1000,
                            2000));
        }
    }

    @Test
    void perIpConnectionLimitClosesTheConnectionPastIt() throws Exception {
        try (RelayFixture relay = RelayFixture.start("max-tcp-connections-per-ip", "2")) {
            InetSocketAddress tcp = relay.server.tcpAddresses().get(0);
            try (Socket first = connect(tcp);
                    Socket second = connect(tcp);
                    Socket third = connect(tcp)) {
                assertBindingAnswered(first);
                assertBindingAnswered(second);
                assertClosedByServer(third);
                assertThat(relay.server.streamCounters().count(StreamEvent.REJECTED_PER_IP_LIMIT))
                        .isEqualTo(1);
                assertThat(relay.server.streamConnections()).isEqualTo(2);
            }
        }
    }

    @Test
    void strictChannelNumbersReachTheEngine() throws Exception {
        assertThat(channelBind(RFC5766_ONLY_CHANNEL)).isZero();
        assertThat(channelBind(RFC5766_ONLY_CHANNEL, "strict-channel-numbers", ""))
                .isEqualTo(400);
        assertThat(channelBind(0x4001, "strict-channel-numbers", "")).isZero();
    }

    /** The error code of a ChannelBind of {@code channel} on a fresh allocation, 0 for success. */
    private static int channelBind(int channel, String... options) throws Exception {
        try (RelayFixture relay = RelayFixture.start(options)) {
            String username = RelayFixture.restUsername("carol");
            try (TurnClient client =
                    new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username))) {
                client.allocate();
                TransportAddress peer = TransportAddress.parse("127.0.0.1", 9);
                return client.request(StunMethod.CHANNEL_BIND, w -> {
                            w.putInt(AttributeType.CHANNEL_NUMBER, channel << 16);
                            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peer);
                        })
                        .errorCode();
            }
        }
    }

    private static Socket connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        socket.connect(address, SOCKET_TIMEOUT_MS);
        socket.setSoTimeout(SOCKET_TIMEOUT_MS);
        return socket;
    }

    /** A STUN Binding request (RFC 5389 §6: type 0x0001, no attributes) gets a Binding success response. */
    private static void assertBindingAnswered(Socket socket) throws IOException {
        byte[] request = {0x00, 0x01, 0x00, 0x00, 0x21, 0x12, (byte) 0xA4, 0x42, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        socket.getOutputStream().write(request);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[20];
        in.readFully(header);
        assertThat(((header[0] & 0xff) << 8) | (header[1] & 0xff)).isEqualTo(0x0101);
    }

    private static void assertClosedByServer(Socket socket) throws IOException {
        try {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        } catch (SocketException reset) {
            // A reset is a close too.
        }
    }
}
