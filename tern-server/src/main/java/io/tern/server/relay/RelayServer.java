package io.tern.server.relay;

import io.tern.cluster.FleetSettings;
import io.tern.cluster.NodeRegistry;
import io.tern.cluster.RedisFleet;
import io.tern.cluster.userdb.RedisUserDb;
import io.tern.netty.NettyTransports;
import io.tern.netty.relay.FleetLeases;
import io.tern.netty.relay.TransportSettings;
import io.tern.netty.relay.TurnServerTransport;
import io.tern.netty.relay.UdpIo;
import io.tern.netty.relay.UdpSocketSettings;
import io.tern.netty.stream.StreamCounters;
import io.tern.netty.stream.StreamSettings;
import io.tern.netty.stream.TlsContextSource;
import io.tern.netty.stream.TlsSettings;
import io.tern.server.config.AddressPlan;
import io.tern.server.config.AuthMode;
import io.tern.server.config.ExternalIpMapping;
import io.tern.server.config.StaticUser;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.drain.AlternateSource;
import io.tern.server.drain.RegistryAlternates;
import io.tern.server.drain.StaticAlternates;
import io.tern.stun.address.TransportAddress;
import io.tern.turn.allocation.RelayPortPool;
import io.tern.turn.auth.CredentialStore;
import io.tern.turn.auth.NonceService;
import io.tern.turn.engine.SynchronizedSharedState;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnEngine;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.engine.TurnShared;
import io.tern.turn.policy.PeerAddressPolicy;
import io.tern.turn.quota.AllocationQuota;
import io.tern.turn.redirect.AlternateServers;
import io.tern.turn.redirect.Alternates;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** How often {@code redis-userdb} is read: a change takes effect within it. */
    private static final Duration USERDB_INTERVAL = Duration.ofSeconds(2);

    private final TurnServerTransport transport;
    private final TlsContextSource tls;
    private final AtomicBoolean draining;
    private final Alternates alternates;
    private final AlternateSource alternateSource;
    private final String summary;
    private final RedisFleet fleet;
    private final RedisUserDb userDb;

    private RelayServer(
            TurnServerTransport transport,
            TlsContextSource tls,
            AtomicBoolean draining,
            Alternates alternates,
            AlternateSource alternateSource,
            String summary,
            RedisFleet fleet,
            RedisUserDb userDb) {
        this.transport = transport;
        this.tls = tls;
        this.draining = draining;
        this.alternates = alternates;
        this.alternateSource = alternateSource;
        this.summary = summary;
        this.fleet = fleet;
        this.userDb = userDb;
    }

    /**
     * A relay redirecting to coturn's static alternate servers if the config names any, else, in a
     * fleet ({@code cluster-redis}), to the registry's live nodes while it drains.
     */
    public static RelayServer start(TurnServerConfig config) throws InterruptedException {
        RedisFleet fleet = startFleet(config);
        StaticAlternates statics = StaticAlternates.from(config);
        AlternateSource source =
                fleet != null && statics.alternates().isEmpty() ? new RegistryAlternates(fleet) : statics;
        RelayServer server = start(config, source, fleet);
        statics.excludeSelf(Map.of(
                TransportProtocol.UDP, server.udpAddresses(),
                TransportProtocol.TCP, server.tcpAddresses(),
                TransportProtocol.TLS, server.tlsAddresses()));
        server.refreshAlternates();
        return server;
    }

    /**
     * A relay redirecting Allocates to where {@code alternateSource} says (a fleet registry, or
     * {@link StaticAlternates}); asked now, on {@link #drain()} and on each {@link #refreshAlternates()}.
     */
    public static RelayServer start(TurnServerConfig config, AlternateSource alternateSource)
            throws InterruptedException {
        return start(config, alternateSource, startFleet(config));
    }

    private static RelayServer start(TurnServerConfig config, AlternateSource alternateSource, RedisFleet fleet)
            throws InterruptedException {
        AddressPlan plan = AddressPlan.forHost(config);
        List<InetAddress> listenIps = plan.listenIps();
        InetAddress relayV4 = plan.relayV4().orElse(null);
        InetAddress relayV6 = plan.relayV6().orElse(null);

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
                .strictChannelNumbers(config.strictChannelNumbers())
                .unauthenticatedRate(config.unauthenticatedRate(), 2.0 * config.unauthenticatedRate());
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
        Alternates alternates = new Alternates(alternateSource.alternates());
        engine.clusterLeases(fleet != null, config.clusterFailClosed());
        SecureRandom random = new SecureRandom();
        byte[] nonceKey = config.statelessNonceSecret()
                .map(NonceService::keyFromSecret)
                .orElseGet(() -> {
                    byte[] key = new byte[32];
                    random.nextBytes(key);
                    return key;
                });
        CredentialStore credentials = credentials(config);
        PeerAddressPolicy peerPolicy = peerPolicy(config, plan, listenAddresses);
        TurnShared shared = new TurnShared(
                credentials,
                peerPolicy,
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
                        draining),
                alternates);

        List<InetSocketAddress> tcpAddresses = config.noTcp() ? List.of() : listenAddresses;
        List<InetSocketAddress> tlsAddresses = new ArrayList<>();
        TlsContextSource tls = null;
        if (config.tlsEnabled()) {
            for (InetAddress ip : listenIps) {
                tlsAddresses.add(new InetSocketAddress(ip, config.tlsListeningPort()));
            }
            tls = loadTls(config);
        }
        RedisUserDb userDb = startUserDb(config, credentials, peerPolicy);
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
                        UdpSocketSettings.DEFAULT,
                        UdpIo.parse(config.udpIo()),
                        fleet == null ? FleetLeases.NONE : fleet));
            } catch (InterruptedException | RuntimeException e) {
                if (tls != null) {
                    tls.close();
                }
                if (fleet != null) {
                    fleet.close();
                }
                if (userDb != null) {
                    userDb.close();
                }
                throw e;
            }
        }
        String summary = "listening on udp "
                + AddressPlan.describe(transport == null ? List.of() : transport.udpAddresses())
                + ", tcp " + AddressPlan.describe(transport == null ? List.of() : transport.tcpAddresses())
                + ", tls " + AddressPlan.describe(transport == null ? List.of() : transport.tlsAddresses())
                + ", relay " + plan.describeRelay()
                + " ports " + config.minPort() + "-" + config.maxPort()
                + ", " + config.effectiveRelayThreads() + " relay thread(s), " + NettyTransports.name()
                + ", udp io " + (transport == null ? "none" : transport.udpIo().label())
                + ", realm '" + config.realm() + "', auth " + config.authMode();
        LOG.log(System.Logger.Level.INFO, "Tern relay " + summary);
        if (!config.noTls() && !config.tlsEnabled()) {
            LOG.log(System.Logger.Level.INFO, "TURN over TLS is off: no 'cert' and 'pkey' given");
        }
        if (fleet != null) {
            fleet.announce(announcedRelays(config, plan), announcedListeners(transport, config, plan));
        }
        RelayServer server =
                new RelayServer(transport, tls, draining, alternates, alternateSource, summary, fleet, userDb);
        if (tls != null) {
            RUNNING.add(server);
            installSighupReload();
        }
        return server;
    }

    /**
     * Reads coturn's {@code redis-userdb} into {@code credentials} (the REST secrets too under
     * {@code use-auth-secret}) and {@code peerPolicy}; nothing without authentication.
     */
    private static RedisUserDb startUserDb(
            TurnServerConfig config, CredentialStore credentials, PeerAddressPolicy peerPolicy) {
        if (config.redisUserdb().isEmpty()) {
            return null;
        }
        if (config.authMode() == AuthMode.NONE) {
            LOG.log(System.Logger.Level.WARNING, "redis-userdb is not read: no-auth asks for no credentials");
            return null;
        }
        boolean withSecrets = config.authMode() == AuthMode.REST_SECRET;
        LOG.log(
                System.Logger.Level.INFO,
                "redis-userdb " + config.redisUserdb().orElseThrow() + ": users"
                        + (withSecrets ? " and REST secrets" : "") + " of realm '" + config.realm()
                        + "' and peer ranges, read every " + USERDB_INTERVAL.toSeconds() + " s");
        return RedisUserDb.start(
                config.redisUserdb().orElseThrow(),
                config.realm(),
                withSecrets,
                USERDB_INTERVAL,
                credentials::replaceDynamic,
                peerPolicy::replaceDynamic);
    }

    /** Joins the fleet when {@code cluster-redis} is set; an unreachable Redis is a warning, not a failure. */
    private static RedisFleet startFleet(TurnServerConfig config) {
        if (config.clusterRedis().isEmpty()) {
            return null;
        }
        String nodeId = config.clusterNodeId().orElseGet(RelayServer::hostName);
        FleetSettings settings = new FleetSettings(
                config.clusterRedis().orElseThrow(),
                nodeId,
                Duration.ofSeconds(config.clusterLeaseTtlSeconds()),
                config.clusterFailClosed(),
                config.realm(),
                config.userQuota(),
                config.totalQuota());
        LOG.log(
                System.Logger.Level.INFO,
                "fleet: node '" + nodeId + "' on " + settings.redis() + ", lease TTL " + config.clusterLeaseTtlSeconds()
                        + " s, user-quota " + config.userQuota() + " and total-quota " + config.totalQuota()
                        + " fleet-wide, fail " + (config.clusterFailClosed() ? "closed" : "open"));
        return RedisFleet.start(settings);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "tern" : env;
        }
    }

    /** The relay addresses clients are given: {@code external-ip} where set, else the bound ones. */
    private static List<String> announcedRelays(TurnServerConfig config, AddressPlan plan) {
        List<String> relays = new ArrayList<>();
        for (ExternalIpMapping mapping : config.externalIps()) {
            relays.add(mapping.publicIp().getHostAddress());
        }
        if (relays.isEmpty()) {
            plan.relayV4().ifPresent(ip -> relays.add(ip.getHostAddress()));
            plan.relayV6().ifPresent(ip -> relays.add(ip.getHostAddress()));
        }
        return relays;
    }

    /**
     * Each listener as {@code udp|tcp|tls/HOST:PORT}, where another node can send clients (a
     * wildcard listener is named by the node's first announced relay address).
     */
    private static List<String> announcedListeners(
            TurnServerTransport transport, TurnServerConfig config, AddressPlan plan) {
        List<String> listeners = new ArrayList<>();
        if (transport == null) {
            return listeners;
        }
        List<String> relays = announcedRelays(config, plan);
        String fallback = relays.isEmpty() ? null : relays.get(0);
        addListeners(listeners, "udp", transport.udpAddresses(), fallback);
        addListeners(listeners, "tcp", transport.tcpAddresses(), fallback);
        addListeners(listeners, "tls", transport.tlsAddresses(), fallback);
        return listeners;
    }

    private static void addListeners(
            List<String> listeners, String protocol, List<InetSocketAddress> addresses, String fallback) {
        for (InetSocketAddress address : addresses) {
            String host = address.getAddress().isAnyLocalAddress()
                    ? fallback
                    : address.getAddress().getHostAddress();
            if (host != null) {
                String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
                listeners.add(protocol + "/" + h + ":" + address.getPort());
            }
        }
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

    /**
     * Drain mode: new Allocates are sent to an alternate (300) or, without one, refused (508);
     * existing allocations run out.
     */
    public void drain() {
        refreshAlternates();
        draining.set(true);
        if (fleet != null) {
            fleet.markDraining();
        }
    }

    /** The fleet's registry ({@code cluster-redis}), where a draining node finds a node to send clients to. */
    public Optional<NodeRegistry> registry() {
        return Optional.ofNullable(fleet);
    }

    /** The fleet agent, for its figures, or empty without {@code cluster-redis}. */
    public Optional<RedisFleet> fleet() {
        return Optional.ofNullable(fleet);
    }

    /** Hands the engines the {@link AlternateSource}'s alternates as of now. */
    public void refreshAlternates() {
        alternates.set(alternateSource.alternates());
    }

    /** Where Allocates are redirected now, for diagnostics and tests. */
    public AlternateServers alternates() {
        return alternates.current();
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
    /** How the relay threads do UDP I/O: {@code ffm} or {@code netty}, {@code none} without a relay transport. */
    public String udpIo() {
        return transport == null ? "none" : transport.udpIo().label();
    }

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
        if (fleet != null) {
            fleet.close();
        }
        if (userDb != null) {
            userDb.close();
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

    private static PeerAddressPolicy peerPolicy(
            TurnServerConfig config, AddressPlan plan, List<InetSocketAddress> listenAddresses) {
        List<TransportAddress> self = new ArrayList<>();
        for (InetSocketAddress listen : listenAddresses) {
            for (InetAddress ip : plan.localAddresses(listen.getAddress())) {
                self.add(TransportAddress.of(new InetSocketAddress(ip, listen.getPort())));
                self.add(TransportAddress.of(new InetSocketAddress(ip, config.tlsListeningPort())));
            }
        }
        return PeerAddressPolicy.of(config.allowedPeerIps(), config.deniedPeerIps(), config.allowLoopbackPeers(), self);
    }
}
