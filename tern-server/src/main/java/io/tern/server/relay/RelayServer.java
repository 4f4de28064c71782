package io.tern.server.relay;

import io.tern.netty.NettyTransports;
import io.tern.netty.relay.TransportSettings;
import io.tern.netty.relay.TurnServerTransport;
import io.tern.netty.relay.UdpSocketSettings;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamSettings;
import io.tern.netty.stream.TlsContextSource;
import io.tern.netty.stream.TlsSettings;
import io.tern.server.config.AuthMode;
import io.tern.server.config.ExternalIpMapping;
import io.tern.server.config.StaticUser;
import io.tern.server.config.TurnServerConfig;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.engine.SynchronizedSharedState;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns a validated {@link TurnServerConfig} into running listeners: the one place where config
 * options meet the engine's and the transport's settings.
 */
public final class RelayServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("tern");
    /** {@code stale-nonce=0} means nonces never go stale; a century is close enough and can't overflow. */
    private static final long UNLIMITED_NONCE_LIFETIME_NS = TimeUnit.DAYS.toNanos(36500);

    /** Servers whose TLS certificates SIGHUP reloads. */
    private static final Set<RelayServer> RUNNING = new CopyOnWriteArraySet<>();

    private static final AtomicBoolean SIGHUP_INSTALLED = new AtomicBoolean();

    private final TurnServerTransport transport;
    private final TlsContextSource tls;
    private final AtomicBoolean draining;
    private final String summary;

    private RelayServer(TurnServerTransport transport, TlsContextSource tls, AtomicBoolean draining, String summary) {
        this.transport = transport;
        this.tls = tls;
        this.draining = draining;
        this.summary = summary;
    }

    public static RelayServer start(TurnServerConfig config) throws InterruptedException {
        List<InetAddress> listenIps = config.listeningIps().isEmpty() ? List.of(wildcardV4()) : config.listeningIps();
        InetAddress relayV4 = relayAddress(config, Inet4Address.class, listenIps);
        InetAddress relayV6 = relayAddress(config, Inet6Address.class, listenIps);

        TurnEngineConfig.Builder engine = TurnEngineConfig.builder()
                .relayAddressV4(relayV4 == null ? null : TransportAddress.of(new InetSocketAddress(relayV4, 0)))
                .relayAddressV6(relayV6 == null ? null : TransportAddress.of(new InetSocketAddress(relayV6, 0)))
                .defaultLifetimeNs(TimeUnit.SECONDS.toNanos(config.defaultAllocationLifetimeSeconds()))
                .maxLifetimeNs(TimeUnit.SECONDS.toNanos(config.maxAllocateLifetimeSeconds()))
                .permissionLifetimeNs(TimeUnit.SECONDS.toNanos(config.permissionLifetimeSeconds()))
                .channelLifetimeNs(TimeUnit.SECONDS.toNanos(config.channelLifetimeSeconds()))
                .software(config.softwareAttribute()
                        .map(s -> s.getBytes(StandardCharsets.UTF_8))
                        .orElse(null))
                .alwaysFingerprint(config.fingerprint())
                .strictChannelNumbers(config.strictChannelNumbers());
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
        SecureRandom random = new SecureRandom();
        TurnShared shared = new TurnShared(
                credentials(config),
                peerPolicy(config, listenAddresses),
                nonceKey,
                config.staleNonceSeconds() == 0
                        ? UNLIMITED_NONCE_LIFETIME_NS
                        : TimeUnit.SECONDS.toNanos(config.staleNonceSeconds()),
                new SynchronizedSharedState(
                        new AllocationQuota(config.userQuota(), config.totalQuota(), config.maxAllocations()),
                        relayV4 == null
                                ? null
                                : new RelayPortPool(
                                        config.minPort(), config.maxPort(), new SplittableRandom(random.nextLong())),
                        relayV6 == null
                                ? null
                                : new RelayPortPool(
                                        config.minPort(), config.maxPort(), new SplittableRandom(random.nextLong())),
                        draining));

        List<InetSocketAddress> tcpAddresses = config.noTcp() ? List.of() : listenAddresses;
        List<InetSocketAddress> tlsAddresses = new ArrayList<>();
        TlsContextSource tls = null;
        if (config.tlsEnabled()) {
            for (InetAddress ip : listenIps) {
                tlsAddresses.add(new InetSocketAddress(ip, config.tlsListeningPort()));
            }
            tls = loadTls(config);
        }
        TurnServerTransport transport = null;
        if (!config.noUdp() || !tcpAddresses.isEmpty() || !tlsAddresses.isEmpty()) {
            try {
                transport = TurnServerTransport.start(new TransportSettings(
                        config.noUdp() ? List.of() : listenAddresses,
                        tcpAddresses,
                        tlsAddresses,
                        tls,
                        streamSettings(config),
                        config.effectiveRelayThreads(),
                        engine.build(),
                        shared,
                        InstantSource.system(),
                        UdpSocketSettings.DEFAULT));
            } catch (InterruptedException | RuntimeException e) {
                if (tls != null) {
                    tls.close();
                }
                throw e;
            }
        }
        String summary = "listening on udp " + addresses(transport == null ? List.of() : transport.udpAddresses())
                + ", tcp " + addresses(transport == null ? List.of() : transport.tcpAddresses())
                + ", tls " + addresses(transport == null ? List.of() : transport.tlsAddresses())
                + ", relay " + (relayV4 == null ? "" : relayV4.getHostAddress())
                + (relayV6 == null ? "" : " " + relayV6.getHostAddress())
                + " ports " + config.minPort() + "-" + config.maxPort()
                + ", " + config.effectiveRelayThreads() + " relay thread(s), " + NettyTransports.name()
                + ", realm '" + config.realm() + "', auth " + config.authMode();
        LOG.log(System.Logger.Level.INFO, "Tern relay " + summary);
        if (!config.noTls() && !config.tlsEnabled()) {
            LOG.log(System.Logger.Level.INFO, "TURN over TLS is off: no 'cert' and 'pkey' given");
        }
        RelayServer server = new RelayServer(transport, tls, draining, summary);
        if (tls != null) {
            RUNNING.add(server);
            installSighupReload();
        }
        return server;
    }

    private static String addresses(List<InetSocketAddress> addresses) {
        return addresses.isEmpty() ? "(disabled)" : addresses.toString();
    }

    private static TlsContextSource loadTls(TurnServerConfig config) {
        TlsSettings settings = new TlsSettings(
                config.cert().orElseThrow(),
                config.pkey().orElseThrow(),
                config.cipherList().orElse(null),
                config.noTlsV1_2(),
                TlsSettings.DEFAULT_RELOAD_POLL_MS);
        try {
            return TlsContextSource.load(settings);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(
                    "cannot use the TLS certificate '" + settings.certFile() + "' and key '" + settings.keyFile()
                            + "': " + e.getMessage(),
                    e);
        }
    }

    /** SIGHUP reloads the TLS certificates of every running server, as in coturn. */
    private static void installSighupReload() {
        if (!SIGHUP_INSTALLED.compareAndSet(false, true)) {
            return;
        }
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> {
                LOG.log(System.Logger.Level.INFO, "SIGHUP: reloading TLS certificates");
                for (RelayServer server : RUNNING) {
                    server.reloadCertificates();
                }
            });
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "SIGHUP certificate reload unavailable: " + e.getMessage());
        }
    }

    /**
     * Reloads the TLS certificate and key from their files: new handshakes use them, running
     * sessions keep theirs. Returns false (keeping the old ones) when the files can't be used.
     */
    public boolean reloadCertificates() {
        return tls != null && tls.reload();
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
        return transport == null ? List.of() : transport.udpAddresses();
    }

    public List<InetSocketAddress> tcpAddresses() {
        return transport == null ? List.of() : transport.tcpAddresses();
    }

    public List<InetSocketAddress> tlsAddresses() {
        return transport == null ? List.of() : transport.tlsAddresses();
    }

    public List<TurnEngine> engines() {
        return transport == null ? List.of() : transport.engines();
    }

    /** TCP and TLS connection events (accepted, limits, timeouts, handshake failures), or null without listeners. */
    public StreamCounters streamCounters() {
        return transport == null ? null : transport.streamCounters();
    }

    /** Datagrams the kernel dropped at the relay's full UDP receive buffers, so far. */
    public long kernelReceiveDrops() {
        return transport == null ? 0 : transport.kernelReceiveDrops();
    }

    /** TCP and TLS connections open now. */
    public int streamConnections() {
        return transport == null ? 0 : transport.streamConnections();
    }

    @Override
    public void close() {
        RUNNING.remove(this);
        if (transport != null) {
            transport.close();
        }
        if (tls != null) {
            tls.close();
        }
    }

    /** The TCP and TLS connection bounds the {@code max-tcp-connections}, {@code tcp-*-timeout}, ... options set. */
    static StreamSettings streamSettings(TurnServerConfig config) {
        return new StreamSettings(
                config.maxTcpConnections(),
                config.maxTcpConnectionsPerIp(),
                TimeUnit.SECONDS.toNanos(config.tcpIdleTimeoutSeconds()),
                TimeUnit.SECONDS.toNanos(config.tcpMessageTimeoutSeconds()),
                TimeUnit.SECONDS.toNanos(config.tlsHandshakeTimeoutSeconds()),
                config.tcpWriteLowWaterMarkBytes(),
                config.tcpWriteHighWaterMarkBytes());
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
        List<TransportAddress> self = new ArrayList<>();
        for (InetSocketAddress listen : listenAddresses) {
            for (InetAddress ip : expand(listen.getAddress())) {
                self.add(TransportAddress.of(new InetSocketAddress(ip, listen.getPort())));
                self.add(TransportAddress.of(new InetSocketAddress(ip, config.tlsListeningPort())));
            }
        }
        return PeerAddressPolicy.of(config.allowedPeerIps(), config.deniedPeerIps(), config.allowLoopbackPeers(), self);
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
    private static InetAddress relayAddress(
            TurnServerConfig config, Class<? extends InetAddress> family, List<InetAddress> listenIps) {
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
