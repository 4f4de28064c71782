package io.tern.turn.testing;

import io.tern.stun.address.TransportAddress;
import io.tern.testkit.FakeClock;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.ClientEndpoint;
import io.tern.turn.engine.SynchronizedSharedState;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.IpRange;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One {@link TurnEngine} wired to in-memory fakes: a {@link FakeClock} and a {@link FakeTransport}
 * that drains it after every input. No sockets, no threads, no real time, a seeded random source.
 * Shared by the engine's tests, the JMH benchmarks and the server's tests (the tern-turn test-jar).
 */
public final class TurnFixture {
    public static final String REALM = "tern.test";
    public static final String RELAY_V4 = "192.0.2.1";
    public static final String RELAY_V6 = "2001:db8::1";
    public static final TransportAddress SERVER_LISTENER = TransportAddress.parse(RELAY_V4, 3478);
    public static final int UDP_LISTENER = 0;
    public static final int TCP_LISTENER = 1;
    public static final int PORT_MIN = 49152;
    public static final int PORT_MAX = 49407;

    public final FakeClock clock = new FakeClock();
    public final FakeTransport transport = new FakeTransport();
    public final TurnEngineConfig config;
    public final SynchronizedSharedState state;
    public final TurnShared shared;
    public final AtomicBoolean draining = new AtomicBoolean();
    public final TurnEngine engine;
    private final ClientEndpoint endpoint = new ClientEndpoint();

    private TurnFixture(Builder b) {
        TurnEngineConfig.Builder configBuilder = TurnEngineConfig.builder()
                .relayAddressV4(TransportAddress.parse(RELAY_V4, 0))
                .software("tern-test".getBytes(StandardCharsets.UTF_8));
        if (b.ipv6Relay) {
            configBuilder.relayAddressV6(TransportAddress.parse(RELAY_V6, 0));
        }
        b.configure.accept(configBuilder);
        this.config = configBuilder.build();
        this.state = new SynchronizedSharedState(
                new AllocationQuota(b.userQuota, b.totalQuota, 100_000),
                new RelayPortPool(b.portMin, b.portMax, new SplittableRandom(42)),
                b.ipv6Relay ? new RelayPortPool(b.portMin, b.portMax, new SplittableRandom(43)) : null,
                draining);
        this.shared = new TurnShared(
                CredentialStore.of(REALM, b.users, b.secrets, ':'),
                PeerAddressPolicy.of(
                        b.allowed.stream().map(IpRange::parse).toList(),
                        b.denied.stream().map(IpRange::parse).toList(),
                        b.allowLoopback,
                        List.of(SERVER_LISTENER)),
                b.nonceKey.getBytes(StandardCharsets.UTF_8),
                b.nonceLifetimeNs,
                state);
        this.engine = new TurnEngine(
                config, shared, clock, new SplittableRandom(7 + b.shard), clock.nowNs(), b.shard, b.shards);
        engine.registerListener(UDP_LISTENER, TransportProtocol.UDP);
        engine.registerListener(TCP_LISTENER, TransportProtocol.TCP);
        transport.attach(engine);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static TurnFixture create() {
        return builder().build();
    }

    public TurnEngine engine() {
        return engine;
    }

    public TurnCounters counters() {
        return engine.counters();
    }

    /** A UDP client at {@code ip:port}, not yet holding credentials. */
    public TurnTestClient client(String ip, int port) {
        return new TurnTestClient(this, UDP_LISTENER, ClientEndpoint.NO_CONNECTION, TransportAddress.parse(ip, port));
    }

    /** A UDP client logged in as alice. */
    public TurnTestClient alice(String ip, int port) {
        return client(ip, port).credentials("alice", "alice-secret");
    }

    public TurnTestClient tcpClient(String ip, int port, long connectionId) {
        return new TurnTestClient(this, TCP_LISTENER, connectionId, TransportAddress.parse(ip, port));
    }

    /** Hands the engine a client message, as the transport would, and drains it. */
    public void deliver(
            int listenerId,
            long connectionId,
            TransportAddress from,
            MutableDirectBuffer buffer,
            int offset,
            int length) {
        engine.onClientMessage(endpoint.set(listenerId, connectionId, from), buffer, offset, length, clock.nowNs());
        transport.drain(clock.nowNs());
    }

    /** Moves simulated time on and lets the engine run whatever expired meanwhile. */
    public void advanceSeconds(long seconds) {
        advanceMillis(TimeUnit.SECONDS.toMillis(seconds));
    }

    public void advanceMillis(long millis) {
        clock.advanceMillis(millis);
        engine.onTimeout(clock.nowNs());
        transport.drain(clock.nowNs());
    }

    /**
     * A datagram from {@code from} arriving on relay socket {@code relayId}, laid out as a transport
     * would: {@link TurnEngine#PEER_PACKET_HEADROOM} spare bytes before the data.
     */
    public UnsafeBuffer peerSends(int relayId, TransportAddress from, byte[] data) {
        int headroom = TurnEngine.PEER_PACKET_HEADROOM;
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[headroom + data.length]);
        buffer.putBytes(headroom, data);
        engine.onPeerDatagram(relayId, from.copy(), buffer, headroom, data.length, clock.nowNs());
        transport.drain(clock.nowNs());
        return buffer;
    }

    /** A peer connects in to TCP relay listener {@code listenerRelayId}; returns the engine's relay id for it, or -1. */
    public int peerConnects(int listenerRelayId, TransportAddress from) {
        int relayId = engine.onPeerConnectionAccepted(listenerRelayId, from, clock.nowNs());
        if (relayId >= 0) {
            transport.peerConnections.put(relayId, from.copy());
        }
        transport.drain(clock.nowNs());
        return relayId;
    }

    /** A peer TCP connection closes on the peer's side. */
    public void peerCloses(int relayId) {
        transport.peerConnections.remove(relayId);
        transport.bindings.remove(relayId);
        engine.onPeerConnectionClosed(relayId, clock.nowNs());
        transport.drain(clock.nowNs());
    }

    /** A client TCP/TLS connection closes. */
    public void connectionCloses(long connectionId) {
        engine.onClientConnectionClosed(connectionId, clock.nowNs());
        transport.drain(clock.nowNs());
    }

    public static final class Builder {
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
        private String nonceKey = "nonce-key-for-tests";
        private int shard;
        private int shards = 1;

        /** The engine of relay thread {@code index} of {@code count}. */
        public Builder shard(int index, int count) {
            this.shard = index;
            this.shards = count;
            return this;
        }

        public Builder config(Consumer<TurnEngineConfig.Builder> configure) {
            this.configure = configure;
            return this;
        }

        /** Only these static users (instead of alice and bob). */
        public Builder onlyUsers(String... entries) {
            users.clear();
            users.addAll(List.of(entries));
            return this;
        }

        public Builder user(String entry) {
            users.add(entry);
            return this;
        }

        public Builder secret(String secret) {
            secrets.add(secret);
            return this;
        }

        public Builder ipv6Relay() {
            this.ipv6Relay = true;
            return this;
        }

        public Builder allowLoopback() {
            this.allowLoopback = true;
            return this;
        }

        public Builder allowedPeers(String range) {
            allowed.add(range);
            return this;
        }

        public Builder deniedPeers(String range) {
            denied.add(range);
            return this;
        }

        public Builder userQuota(int quota) {
            this.userQuota = quota;
            return this;
        }

        public Builder totalQuota(int quota) {
            this.totalQuota = quota;
            return this;
        }

        public Builder ports(int min, int max) {
            this.portMin = min;
            this.portMax = max;
            return this;
        }

        public Builder nonceLifetimeSeconds(long seconds) {
            this.nonceLifetimeNs = TimeUnit.SECONDS.toNanos(seconds);
            return this;
        }

        /** The nonce HMAC key; fixtures with the same key accept each other's nonces, as nodes of a fleet. */
        public Builder nonceKey(String key) {
            this.nonceKey = key;
            return this;
        }

        public TurnFixture build() {
            return new TurnFixture(this);
        }
    }
}
