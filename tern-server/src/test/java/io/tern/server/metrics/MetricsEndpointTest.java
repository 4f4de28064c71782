package io.tern.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.drain.RelayDrain;
import io.tern.stun.address.TransportAddress;
import io.tern.stun.attribute.AttributeType;
import io.tern.stun.message.StunMethod;
import java.io.ByteArrayInputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code --prometheus}: Tern in-process on loopback, real UDP traffic, {@code /metrics} and {@code /health} over HTTP. */
class MetricsEndpointTest {
    private static final int CHANNEL = 0x4001;

    private RelayFixture relay;
    private DatagramSocket peer;

    @BeforeEach
    void start() throws Exception {
        relay = RelayFixture.start();
        peer = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        peer.setSoTimeout(5000);
    }

    @AfterEach
    void stop() {
        if (peer != null) {
            peer.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void scrapeReflectsAllocationsRelayedTrafficRequestsAndAuthFailures() throws Exception {
        String username = RelayFixture.restUsername("alice");
        try (TurnClient alice = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username));
                TurnClient mallory = new TurnClient(relay.udpAddress(), username, "not-the-password")) {
            assertThat(alice.unauthenticated(StunMethod.BINDING, w -> {}).success())
                    .isTrue();
            alice.allocate(); // a 401 challenge, then success
            bindChannel(alice);
            int[] sizes = {1, 100, 1200};
            for (int size : sizes) {
                relayToPeer(alice, size);
            }
            byte[][] replies = {new byte[7], new byte[500]};
            for (byte[] reply : replies) {
                relayToClient(alice, reply);
            }
            TurnClient.Response refused =
                    mallory.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
            assertThat(refused.errorCode()).isEqualTo(401);

            Map<String, Double> m = awaitScrape(
                    s -> value(s, "tern_relayed_packets_total{direction=\"peer_to_client\",transport=\"udp\"}") == 2);
            assertThat(value(m, "tern_allocations_active{transport=\"udp\"}")).isEqualTo(1);
            assertThat(value(m, "tern_allocations_active{transport=\"tcp\"}")).isZero();
            assertThat(value(m, "tern_relayed_packets_total{direction=\"client_to_peer\",transport=\"udp\"}"))
                    .isEqualTo(3);
            assertThat(value(m, "tern_relayed_bytes_total{direction=\"client_to_peer\",transport=\"udp\"}"))
                    .isEqualTo(1 + 100 + 1200);
            assertThat(value(m, "tern_relayed_bytes_total{direction=\"peer_to_client\",transport=\"udp\"}"))
                    .isEqualTo(7 + 500);
            assertThat(value(m, "tern_requests_total{method=\"binding\"}")).isEqualTo(1);
            assertThat(value(m, "tern_requests_total{method=\"allocate\"}"))
                    .isEqualTo(4); // alice 401 + ok, mallory 401 + 401
            assertThat(value(m, "tern_requests_total{method=\"channel_bind\"}")).isEqualTo(1);
            assertThat(value(m, "tern_requests_total{method=\"create_permission\"}"))
                    .isZero();
            assertThat(value(m, "tern_error_responses_total{code=\"401\"}")).isEqualTo(3);
            assertThat(value(m, "tern_error_responses_total{code=\"508\"}")).isZero();
            assertThat(value(m, "tern_auth_failures_total")).isEqualTo(1);
            assertThat(value(m, "tern_dropped_packets_total{reason=\"no_permission\"}"))
                    .isZero();
            assertThat(value(m, "tern_connections_open")).isZero();
            assertThat(value(m, "tern_draining")).isZero();
            // The relay's UDP path as resolved at start: FFM on this JDK unless the suite asks for Netty.
            String udpIo = "netty".equals(System.getProperty("tern.test.udp-io"))
                    ? "netty"
                    : io.tern.netty.relay.UdpIo.AUTO.resolve().label();
            assertThat(value(m, "tern_udp_io{io=\"" + udpIo + "\"}")).isEqualTo(1);
            assertThat(m).containsKey("jvm_memory_used_bytes{area=\"heap\"}");

            // Refresh with LIFETIME 0 deletes the allocation; the gauge follows at the next scrape.
            assertThat(alice.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 0))
                            .success())
                    .isTrue();
            m = awaitScrape(s -> value(s, "tern_allocations_active{transport=\"udp\"}") == 0);
            assertThat(value(m, "tern_requests_total{method=\"refresh\"}")).isEqualTo(1);
        }
    }

    @Test
    void exposesNoPerUserLabels() throws Exception {
        String username = RelayFixture.restUsername("carol-unique-name");
        try (TurnClient carol = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username))) {
            carol.allocate();
        }
        String body = relay.get("/metrics").body();
        assertThat(body).doesNotContain("carol-unique-name").doesNotContain("127.0.0.1");
        for (String line : body.split("\n")) {
            if (line.startsWith("tern_")) {
                assertThat(line)
                        .matches(
                                "tern_[a-z_]+(\\{(direction|transport|method|code|reason|event|io)=\"[a-z0-9_]+\""
                                        + "(,(direction|transport|method|code|reason|event|io)=\"[a-z0-9_]+\")*})? [0-9.eE+-]+");
            }
        }
    }

    @Test
    void countsTcpAllocationsAndConnectionsUnderTheirOwnTransport() throws Exception {
        String username = RelayFixture.restUsername("tcp-user");
        InetSocketAddress tcpListener = relay.server.tcpAddresses().get(0);
        try (TurnClient client = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username))
                .overTcp(tcpListener)) {
            TurnClient.Response allocated =
                    client.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
            assertThat(allocated.success())
                    .as("Allocate over TCP, error %d", allocated.errorCode())
                    .isTrue();
            Map<String, Double> m = awaitScrape(s -> value(s, "tern_allocations_active{transport=\"tcp\"}") == 1);
            assertThat(value(m, "tern_allocations_active{transport=\"tcp\"}")).isEqualTo(1);
            assertThat(value(m, "tern_allocations_active{transport=\"udp\"}")).isZero();
            assertThat(value(m, "tern_connections_open")).isEqualTo(1);
            assertThat(value(m, "tern_connection_events_total{event=\"accepted\"}"))
                    .isEqualTo(1);
        }
        Map<String, Double> m = awaitScrape(s -> value(s, "tern_connections_open") == 0);
        assertThat(value(m, "tern_connections_open")).isZero();
        assertThat(value(m, "tern_connection_events_total{event=\"closed\"}")).isEqualTo(1);
        // RFC 8656: closing the TCP connection ends its allocation.
        m = awaitScrape(s -> value(s, "tern_allocations_active{transport=\"tcp\"}") == 0);
        assertThat(value(m, "tern_allocations_active{transport=\"tcp\"}")).isZero();
    }

    @Test
    void openConnectionsGaugeReadsThePluggedSupplier() throws Exception {
        relay.metrics.metrics().openConnections(() -> 7);
        assertThat(value(relay.scrape(), "tern_connections_open")).isEqualTo(7);
    }

    @Test
    void healthIsOkWhileServingAndUnknownPathsAre404() throws Exception {
        HttpResponse<String> health = relay.get("/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("ok\n");
        assertThat(relay.get("/ready").statusCode()).isEqualTo(200);
        assertThat(relay.get("/healthz").statusCode()).isEqualTo(404);
        assertThat(relay.get("/").statusCode()).isEqualTo(404);
    }

    @Test
    void scrapeNegotiatesFormatFilterAndGzipAsThePrometheusClientDoes() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI metrics = URI.create("http://127.0.0.1:" + relay.metrics.address().getPort() + "/metrics");
        HttpResponse<String> text = relay.get("/metrics");
        assertThat(text.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        HttpResponse<String> open = http.send(
                HttpRequest.newBuilder(metrics)
                        .header("Accept", "application/openmetrics-text; version=1.0.0")
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(open.headers().firstValue("content-type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/openmetrics-text"));
        assertThat(open.body()).endsWith("# EOF\n");
        HttpResponse<String> filtered = http.send(
                HttpRequest.newBuilder(URI.create(metrics + "?name[]=tern_draining"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(RelayFixture.parse(filtered.body())).containsOnlyKeys("tern_draining");
        HttpResponse<byte[]> gzipped = http.send(
                HttpRequest.newBuilder(metrics)
                        .header("Accept-Encoding", "gzip")
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(gzipped.headers().firstValue("content-encoding")).hasValue("gzip");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("tern_draining 0");
        }
        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(URI.create(metrics.resolve("/health").toString()))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(relay.get("/health").headers().firstValue("cache-control")).hasValue("no-store");
    }

    @Test
    void drainRefusesNewAllocationsWith508KeepsExistingOnesRelayingAndFlipsHealthTo503() throws Exception {
        String username = RelayFixture.restUsername("dave");
        try (TurnClient dave = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username));
                TurnClient erin = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username))) {
            dave.allocate();
            bindChannel(dave);

            relay.server.drain();

            HttpResponse<String> health = relay.get("/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).isEqualTo("draining\n");
            assertThat(relay.get("/ready").statusCode()).isEqualTo(503);
            TurnClient.Response refused =
                    erin.request(StunMethod.ALLOCATE, w -> w.putInt(AttributeType.REQUESTED_TRANSPORT, 17 << 24));
            assertThat(refused.errorCode()).isEqualTo(508);
            relayToPeer(dave, 300);
            relayToClient(dave, new byte[301]);
            // The existing allocation can still be refreshed.
            assertThat(dave.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 600))
                            .success())
                    .isTrue();

            Map<String, Double> m = awaitScrape(
                    s -> value(s, "tern_relayed_packets_total{direction=\"peer_to_client\",transport=\"udp\"}") == 1);
            assertThat(value(m, "tern_draining")).isEqualTo(1);
            assertThat(value(m, "tern_error_responses_total{code=\"508\"}")).isEqualTo(1);
            assertThat(value(m, "tern_allocations_active{transport=\"udp\"}")).isEqualTo(1);
        }
    }

    @Test
    void relayDrainFiresOnceTheLastAllocationIsGone() throws Exception {
        String username = RelayFixture.restUsername("frank");
        RelayMetrics metrics = relay.metrics.metrics();
        CountDownLatch drained = new CountDownLatch(1);
        try (TurnClient frank = new TurnClient(relay.udpAddress(), username, RelayFixture.restPassword(username));
                RelayDrain watch = RelayDrain.start(
                        metrics::draining, metrics::activeAllocations, 0, () -> {}, drained::countDown, 20)) {
            frank.allocate();
            assertThat(drained.await(200, TimeUnit.MILLISECONDS))
                    .as("not draining yet")
                    .isFalse();
            relay.server.drain();
            assertThat(drained.await(200, TimeUnit.MILLISECONDS))
                    .as("an allocation is still open")
                    .isFalse();
            assertThat(frank.request(StunMethod.REFRESH, w -> w.putInt(AttributeType.LIFETIME, 0))
                            .success())
                    .isTrue();
            assertThat(drained.await(5, TimeUnit.SECONDS))
                    .as("last allocation gone")
                    .isTrue();
        }
    }

    private void bindChannel(TurnClient client) throws Exception {
        TransportAddress peerAddress = TransportAddress.of((InetSocketAddress) peer.getLocalSocketAddress());
        TurnClient.Response bound = client.request(StunMethod.CHANNEL_BIND, w -> {
            w.putInt(AttributeType.CHANNEL_NUMBER, CHANNEL << 16);
            w.putXorAddress(AttributeType.XOR_PEER_ADDRESS, peerAddress);
        });
        assertThat(bound.success())
                .as("ChannelBind, error %d", bound.errorCode())
                .isTrue();
    }

    private InetSocketAddress relayedAt;

    private void relayToPeer(TurnClient client, int size) throws Exception {
        byte[] payload = new byte[size];
        ThreadLocalRandom.current().nextBytes(payload);
        byte[] channelData = new byte[4 + ((size + 3) & ~3)];
        channelData[0] = (byte) (CHANNEL >> 8);
        channelData[1] = (byte) CHANNEL;
        channelData[2] = (byte) (size >> 8);
        channelData[3] = (byte) size;
        System.arraycopy(payload, 0, channelData, 4, size);
        client.sendRaw(channelData);
        DatagramPacket atPeer = new DatagramPacket(new byte[2048], 2048);
        peer.receive(atPeer);
        assertThat(Arrays.copyOf(atPeer.getData(), atPeer.getLength())).isEqualTo(payload);
        relayedAt = (InetSocketAddress) atPeer.getSocketAddress();
    }

    private void relayToClient(TurnClient client, byte[] payload) throws Exception {
        ThreadLocalRandom.current().nextBytes(payload);
        peer.send(new DatagramPacket(payload, payload.length, relayedAt));
        byte[] got = client.receiveRaw();
        assertThat(((got[0] & 0xff) << 8) | (got[1] & 0xff)).isEqualTo(CHANNEL);
        assertThat(Arrays.copyOfRange(got, 4, 4 + payload.length)).isEqualTo(payload);
    }

    /** Counters are written by the relay thread; a scrape sees them shortly after the traffic. */
    private Map<String, Double> awaitScrape(Predicate<Map<String, Double>> ready) throws Exception {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        Map<String, Double> m = relay.scrape();
        while (!ready.test(m) && System.nanoTime() < deadlineNs) {
            Thread.onSpinWait();
            m = relay.scrape();
        }
        return m;
    }

    private static double value(Map<String, Double> samples, String series) {
        Double v = samples.get(RelayFixture.series(series));
        assertThat(v).as("series %s in %s", series, samples.keySet()).isNotNull();
        return v;
    }
}
