package io.tern.server.relay;

import io.tern.server.config.AuthMode;
import io.tern.server.config.ExternalIpMapping;
import io.tern.server.config.StaticUser;
import io.tern.server.config.TurnServerConfig;
import io.tern.stun.address.TransportAddress;
import io.tern.transport.netty.NettyTransports;
import io.tern.transport.udp.TurnUdpServer;
import io.tern.transport.udp.UdpServerSettings;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.IpRange;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns a validated {@link TurnServerConfig} into running listeners: the one place where config
 * options meet the engine's and the transport's settings.
 */
public final class RelayServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");

    private final TurnUdpServer udp;
    private final AtomicBoolean draining;
    private final String summary;

    private RelayServer(TurnUdpServer udp, AtomicBoolean draining, String summary) {
        this.udp = udp;
        this.draining = draining;
        this.summary = summary;
    }

    public static RelayServer start(TurnServerConfig config) throws InterruptedException {
        List<InetAddress> listenIps = config.listeningIps().isEmpty()
                ? List.of(wildcardV4()) : config.listeningIps();
        InetAddress relayV4 = relayAddress(config, Inet4Address.class, listenIps);
        InetAddress relayV6 = relayAddress(config, Inet6Address.class, listenIps);

        TurnEngineConfig.Builder engine = TurnEngineConfig.builder()
                .relayAddressV4(relayV4 == null ? null : TransportAddress.of(new InetSocketAddress(relayV4, 0)))
                .relayAddressV6(relayV6 == null ? null : TransportAddress.of(new InetSocketAddress(relayV6, 0)))
                .defaultLifetimeNs(TimeUnit.SECONDS.toNanos(config.defaultAllocationLifetimeSeconds()))
                .maxLifetimeNs(TimeUnit.SECONDS.toNanos(config.maxAllocateLifetimeSeconds()))
                .permissionLifetimeNs(TimeUnit.SECONDS.toNanos(config.permissionLifetimeSeconds()))
                .channelLifetimeNs(TimeUnit.SECONDS.toNanos(config.channelLifetimeSeconds()))
                .software(config.softwareAttribute().map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null))
                .alwaysFingerprint(config.fingerprint());
        for (ExternalIpMapping mapping : config.externalIps()) {
            TransportAddress advertised = TransportAddress.of(new InetSocketAddress(mapping.publicIp(), 0));
            if (mapping.publicIp() instanceof Inet4Address) {
                engine.advertisedAddressV4(advertised);
            } else {
                engine.advertisedAddressV6(advertised);
            }
        }

        List<InetSocketAddress> listenAddresses = new ArrayList<>();
        for (InetAddress ip : listenIps) {
            listenAddresses.add(new InetSocketAddress(ip, config.listeningPort()));
        }
        AtomicBoolean draining = new AtomicBoolean();
        byte[] nonceKey = new byte[32];
        new SecureRandom().nextBytes(nonceKey);
        TurnShared shared = new TurnShared(
                credentials(config),
                new AllocationQuota(config.userQuota(), config.totalQuota(), config.maxAllocations()),
                relayV4 == null ? null : new RelayPortPool(config.minPort(), config.maxPort(), System.nanoTime()),
                relayV6 == null ? null : new RelayPortPool(config.minPort(), config.maxPort(), System.nanoTime() + 1),
                peerPolicy(config, listenAddresses),
                nonceKey,
                TimeUnit.SECONDS.toNanos(config.staleNonceSeconds()),
                () -> System.currentTimeMillis() / 1000,
                draining);

        TurnUdpServer udp = null;
        if (!config.noUdp()) {
            udp = TurnUdpServer.start(new UdpServerSettings(listenAddresses, config.effectiveRelayThreads(),
                    engine.build(), shared, TimeUnit.MILLISECONDS.toNanos(100)));
        }
        String summary = "listening on udp " + (udp == null ? "(disabled)" : udp.boundAddresses())
                + ", relay " + (relayV4 == null ? "" : relayV4.getHostAddress()) + (relayV6 == null ? "" : " " + relayV6.getHostAddress())
                + " ports " + config.minPort() + "-" + config.maxPort()
                + ", " + config.effectiveRelayThreads() + " relay thread(s), " + NettyTransports.name()
                + ", realm '" + config.realm() + "', auth " + config.authMode();
        LOG.log(System.Logger.Level.INFO, "Tern relay " + summary);
        if (!config.noTcp() || config.tlsEnabled()) {
            LOG.log(System.Logger.Level.WARNING, "TURN over TCP and TLS is not implemented yet; serving UDP only");
        }
        return new RelayServer(udp, draining, summary);
    }

    public String summary() {
        return summary;
    }

    /** Drain mode: refuse new allocations, let existing ones run out. */
    public void drain() {
        draining.set(true);
    }

    public boolean draining() {
        return draining.get();
    }

    public List<InetSocketAddress> udpAddresses() {
        return udp == null ? List.of() : udp.boundAddresses();
    }

    public List<TurnEngine> engines() {
        return udp == null ? List.of() : udp.engines();
    }

    @Override
    public void close() {
        if (udp != null) {
            udp.close();
        }
    }

    private static CredentialStore credentials(TurnServerConfig config) {
        List<String> users = new ArrayList<>();
        if (config.authMode() == AuthMode.LONG_TERM) {
            for (StaticUser user : config.staticUsers()) {
                users.add(user.name() + ":0x" + user.keyHex());
            }
        }
        return CredentialStore.of(config.realm(), users, config.restApiSecrets(), config.restApiSeparator());
    }

    private static PeerAddressPolicy peerPolicy(TurnServerConfig config, List<InetSocketAddress> listenAddresses) {
        List<IpRange> allowed = new ArrayList<>();
        for (var range : config.allowedPeerIps()) {
            allowed.add(IpRange.parse(range.first().getHostAddress() + "-" + range.last().getHostAddress()));
        }
        List<IpRange> denied = new ArrayList<>();
        for (var range : config.deniedPeerIps()) {
            denied.add(IpRange.parse(range.first().getHostAddress() + "-" + range.last().getHostAddress()));
        }
        List<TransportAddress> self = new ArrayList<>();
        for (InetSocketAddress listen : listenAddresses) {
            for (InetAddress ip : expand(listen.getAddress())) {
                self.add(TransportAddress.of(new InetSocketAddress(ip, listen.getPort())));
                self.add(TransportAddress.of(new InetSocketAddress(ip, config.tlsListeningPort())));
            }
        }
        return PeerAddressPolicy.of(allowed, denied, config.allowLoopbackPeers(), self);
    }

    /** A wildcard listening address stands for every address of the host. */
    private static List<InetAddress> expand(InetAddress ip) {
        if (!ip.isAnyLocalAddress()) {
            return List.of(ip);
        }
        List<InetAddress> all = new ArrayList<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.addAll(Collections.list(nif.getInetAddresses()));
            }
        } catch (SocketException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot list network interfaces: " + e.getMessage());
        }
        return all;
    }

    /**
     * The relay address of a family: the first {@code relay-ip} of it; else a specific listening
     * IP of it; else, for IPv4 only, the host's first non-loopback address, as coturn does.
     */
    private static InetAddress relayAddress(TurnServerConfig config, Class<? extends InetAddress> family, List<InetAddress> listenIps) {
        for (InetAddress ip : config.relayIps()) {
            if (family.isInstance(ip)) {
                return ip;
            }
        }
        if (!config.relayIps().isEmpty()) {
            return null;
        }
        for (InetAddress ip : listenIps) {
            if (family.isInstance(ip) && !ip.isAnyLocalAddress()) {
                return ip;
            }
        }
        if (family != Inet4Address.class) {
            return null;
        }
        for (InetAddress ip : expand(wildcardV4())) {
            if (ip instanceof Inet4Address && !ip.isLoopbackAddress() && !ip.isLinkLocalAddress()) {
                return ip;
            }
        }
        return InetAddress.getLoopbackAddress();
    }

    private static InetAddress wildcardV4() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
