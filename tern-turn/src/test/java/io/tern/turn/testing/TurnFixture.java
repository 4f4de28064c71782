package io.tern.turn.engine;

import io.tern.stun.address.TransportAddress;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.policy.IpRange;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One {@link TurnEngine} wired to in-memory fakes: a {@link FakeClock}, a {@link RecordingSink}
 * and {@link FakeRelaySockets}. No sockets, no threads, no real time.
 */
final class TurnFixture {
    static final String REALM = "tern.test";
    static final String RELAY_V4 = "192.0.2.1";
    static final String RELAY_V6 = "2001:db8::1";
    static final TransportAddress SERVER_LISTENER = TransportAddress.parse(RELAY_V4, 3478);
    static final int UDP_LISTENER = 0;
    static final int TCP_LISTENER = 1;
    static final int PORT_MIN = 49152;
    static final int PORT_MAX = 49407;

    final FakeClock clock = new FakeClock();
    final RecordingSink sink = new RecordingSink();
    final FakeRelaySockets relays = new FakeRelaySockets();
    final TurnEngineConfig config;
    final TurnShared shared;
    final AtomicBoolean draining = new AtomicBoolean();
    final TurnEngine engine;

    private TurnFixture(Builder b) {
        TurnEngineConfig.Builder configBuilder = TurnEngineConfig.builder()
                .relayAddressV4(TransportAddress.parse(RELAY_V4, 0))
                .software("tern-test".getBytes(StandardCharsets.UTF_8));
        if (b.ipv6Relay) {
            configBuilder.relayAddressV6(TransportAddress.parse(RELAY_V6, 0));
        }
        b.configure.accept(configBuilder);
        this.config = configBuilder.build();
        this.shared = new TurnShared(
                CredentialStore.of(REALM, b.users, b.secrets, ':'),
                new AllocationQuota(b.userQuota, b.totalQuota, 100_000),
                new RelayPortPool(b.portMin, b.portMax, 42),
                b.ipv6Relay ? new RelayPortPool(b.portMin, b.portMax, 43) : null,
                PeerAddressPolicy.of(
                        b.allowed.stream().map(IpRange::parse).toList(),
                        b.denied.stream().map(IpRange::parse).toList(),
                        b.allowLoopback,
                        List.of(SERVER_LISTENER)),
                "nonce-key-for-tests".getBytes(StandardCharsets.UTF_8),
                b.nonceLifetimeNs,
                clock::epochSeconds,
                draining);
        this.engine = new TurnEngine(config, shared, relays, sink, clock.nowNs());
        engine.registerListener(UDP_LISTENER, TransportProtocol.UDP);
        engine.registerListener(TCP_LISTENER, TransportProtocol.TCP);
    }

    static Builder builder() {
        return new Builder();
    }

    static TurnFixture create() {
        return builder().build();
    }

    TurnEngine engine() {
        return engine;
    }

    TurnCounters counters() {
        return engine.counters();
    }

    /** A UDP client at {@code ip:port}, not yet holding credentials. */
    TurnTestClient client(String ip, int port) {
        return new TurnTestClient(this, UDP_LISTENER, TurnEngineSink.NO_CONNECTION, TransportAddress.parse(ip, port));
    }

    /** A UDP client logged in as alice. */
    TurnTestClient alice(String ip, int port) {
        return client(ip, port).credentials("alice", "alice-secret");
    }

    TurnTestClient tcpClient(String ip, int port, long connectionId) {
        return new TurnTestClient(this, TCP_LISTENER, connectionId, TransportAddress.parse(ip, port));
    }

    /** Moves simulated time on and lets the engine run whatever expired meanwhile. */
    void advanceSeconds(long seconds) {
        advanceMillis(TimeUnit.SECONDS.toMillis(seconds));
    }

    void advanceMillis(long millis) {
        clock.advanceMillis(millis);
        engine.onTimeout(clock.nowNs());
    }

    /**
     * A datagram from {@code from} arriving on relay socket {@code relayId}, laid out as a transport
     * would: {@link TurnEngine#PEER_PACKET_HEADROOM} spare bytes before the data.
     */
    UnsafeBuffer peerSends(int relayId, TransportAddress from, byte[] data) {
        int headroom = TurnEngine.PEER_PACKET_HEADROOM;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[headroom + data.length]);
        buffer.putBytes(headroom, data);
        engine.onPeerPacket(relayId, from.copy(), buffer, headroom, data.length, clock.nowNs());
        return buffer;
    }

    static final class Builder {
        private final List<String> users = new ArrayList<>(List.of("alice:alice-secret", "bob:bob-secret"));
        private final List<String> secrets = new ArrayList<>();
        private final List<String> allowed = new ArrayList<>();
        private final List<String> denied = new ArrayList<>();
        private Consumer<TurnEngineConfig.Builder> configure = c -> {};
        private boolean ipv6Relay;
        private boolean allowLoopback;
        private int userQuota;
        private int totalQuota;
        private int portMin = PORT_MIN;
        private int portMax = PORT_MAX;
        private long nonceLifetimeNs = TimeUnit.SECONDS.toNanos(600);

        Builder config(Consumer<TurnEngineConfig.Builder> configure) {
            this.configure = configure;
            return this;
        }

        Builder user(String entry) {
            users.add(entry);
            return this;
        }

        Builder secret(String secret) {
            secrets.add(secret);
            return this;
        }

        Builder ipv6Relay() {
            this.ipv6Relay = true;
            return this;
        }

        Builder allowLoopback() {
            this.allowLoopback = true;
            return this;
        }

        Builder allowedPeers(String range) {
            allowed.add(range);
            return this;
        }

        Builder deniedPeers(String range) {
            denied.add(range);
            return this;
        }

        Builder userQuota(int quota) {
            this.userQuota = quota;
            return this;
        }

        Builder totalQuota(int quota) {
            this.totalQuota = quota;
            return this;
        }

        Builder ports(int min, int max) {
            this.portMin = min;
            this.portMax = max;
            return this;
        }

        Builder nonceLifetimeSeconds(long seconds) {
            this.nonceLifetimeNs = TimeUnit.SECONDS.toNanos(seconds);
            return this;
        }

        TurnFixture build() {
            return new TurnFixture(this);
        }
    }
}
