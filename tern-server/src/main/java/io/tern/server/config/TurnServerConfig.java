package io.tern.server.config;

import static io.tern.server.config.CoturnOptions.*;

import io.tern.cluster.RedisAddress;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated, immutable configuration of {@code tern turn}. Build it with
 * {@link TurnServerConfigAssembler} from a coturn config file and/or command-line options.
 *
 * <p>Each option's value is in {@link #options()}, under its row of {@link CoturnOptions}; the
 * accessors below are typed views of them. Only what is worked out from several options is kept
 * beside them: the authentication mode, the static users' keys and a generated secret.
 *
 * <p>Addresses: an empty {@code listeningIps} or {@code relayIps} means "none given", and the
 * server picks them from the host ({@link AddressPlan}).
 *
 * <p>Authentication: {@link #authMode()} is never ambiguous. In {@link AuthMode#REST_SECRET}
 * mode {@link #restApiSecrets()} is non-empty; if no static secret was given it holds the
 * {@link #generatedSecret()}, which the launcher must print once at start.
 *
 * <p>{@link #toString()} redacts secrets and keys.
 *
 * @param options         every option's value; {@code user} is kept only as {@code staticUsers}
 * @param authMode        how clients authenticate
 * @param staticUsers     the long-term users with their keys, in {@link AuthMode#LONG_TERM} mode
 * @param generatedSecret the REST API secret Tern made up because none was given
 */
public record TurnServerConfig(
        OptionValues options, AuthMode authMode, List<StaticUser> staticUsers, Optional<String> generatedSecret) {
    /** RFC 8656 section 3.2: 10 minutes when the client does not ask for a lifetime. */
    public static final int DEFAULT_ALLOCATION_LIFETIME_SECONDS = TurnEngineConfig.DEFAULT_LIFETIME_SECONDS;

    public TurnServerConfig {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(authMode, "authMode");
        staticUsers = List.copyOf(staticUsers);
        Objects.requireNonNull(generatedSecret, "generatedSecret");
        if (options.get(MIN_PORT) > options.get(MAX_PORT)) {
            throw new IllegalArgumentException("minPort > maxPort");
        }
        if (options.get(TCP_WRITE_LOW_WATER_MARK) > options.get(TCP_WRITE_HIGH_WATER_MARK)) {
            throw new IllegalArgumentException("tcpWriteLowWaterMarkBytes > tcpWriteHighWaterMarkBytes");
        }
        if (authMode == AuthMode.REST_SECRET
                && options.get(STATIC_AUTH_SECRET).isEmpty()
                && generatedSecret.isEmpty()
                && options.get(REDIS_USERDB).isEmpty()) {
            throw new IllegalArgumentException("REST_SECRET mode needs a secret");
        }
    }

    public int listeningPort() {
        return options.get(LISTENING_PORT);
    }

    public int tlsListeningPort() {
        return options.get(TLS_LISTENING_PORT);
    }

    public List<InetAddress> listeningIps() {
        return options.get(LISTENING_IP);
    }

    public List<InetAddress> relayIps() {
        return options.get(RELAY_IP);
    }

    public List<ExternalIpMapping> externalIps() {
        return options.get(EXTERNAL_IP);
    }

    public int minPort() {
        return options.get(MIN_PORT);
    }

    public int maxPort() {
        return options.get(MAX_PORT);
    }

    /** {@code auto}, {@code ffm} or {@code netty}: how relay threads do UDP I/O. */
    public String udpIo() {
        return options.get(UDP_IO);
    }

    public int relayThreads() {
        return options.get(RELAY_THREADS);
    }

    public String realm() {
        return options.get(REALM);
    }

    /** The static REST API secrets, in {@link AuthMode#REST_SECRET} mode. */
    public List<String> staticAuthSecrets() {
        return authMode == AuthMode.REST_SECRET ? options.get(STATIC_AUTH_SECRET) : List.of();
    }

    public char restApiSeparator() {
        return options.get(REST_API_SEPARATOR);
    }

    public int userQuota() {
        return options.get(USER_QUOTA);
    }

    /** {@code cluster-redis}: the fleet's Redis, or empty for quotas of this node alone. */
    public Optional<RedisAddress> clusterRedis() {
        return options.get(CLUSTER_REDIS);
    }

    /** {@code cluster-node-id}, or empty for the host name. */
    public Optional<String> clusterNodeId() {
        return options.get(CLUSTER_NODE_ID);
    }

    public int clusterLeaseTtlSeconds() {
        return options.get(CLUSTER_LEASE_TTL);
    }

    /** {@code cluster-redis-fail closed}: refuse Allocates (508) while Redis is unreachable. */
    public boolean clusterFailClosed() {
        return options.get(CLUSTER_REDIS_FAIL).equals("closed");
    }

    public int totalQuota() {
        return options.get(TOTAL_QUOTA);
    }

    public int maxAllocations() {
        return options.get(MAX_ALLOCATIONS);
    }

    /** 401/438 answers per second per source IP; the burst is twice this. */
    public int unauthenticatedRate() {
        return options.get(UNAUTHENTICATED_RATE);
    }

    /** The lifetime of an allocation whose client asks for none, within {@code max-allocate-lifetime}. */
    public int defaultAllocationLifetimeSeconds() {
        return Math.min(DEFAULT_ALLOCATION_LIFETIME_SECONDS, maxAllocateLifetimeSeconds());
    }

    public int maxAllocateLifetimeSeconds() {
        return options.get(MAX_ALLOCATE_LIFETIME);
    }

    public int channelLifetimeSeconds() {
        return options.get(CHANNEL_LIFETIME);
    }

    public int permissionLifetimeSeconds() {
        return options.get(PERMISSION_LIFETIME);
    }

    public int staleNonceSeconds() {
        return options.get(STALE_NONCE);
    }

    public Optional<String> statelessNonceSecret() {
        return options.get(STATELESS_NONCE_SECRET);
    }

    /** {@code alternate-server}: UDP and TCP clients, unless their own list is given. */
    public List<InetSocketAddress> alternateServers() {
        return options.get(ALTERNATE_SERVER);
    }

    public List<InetSocketAddress> udpAlternateServers() {
        return options.get(UDP_ALTERNATE_SERVER);
    }

    public List<InetSocketAddress> tcpAlternateServers() {
        return options.get(TCP_ALTERNATE_SERVER);
    }

    public List<InetSocketAddress> tlsAlternateServers() {
        return options.get(TLS_ALTERNATE_SERVER);
    }

    public boolean drainOnTerm() {
        return options.get(DRAIN_ON_TERM);
    }

    public int drainMinAllocations() {
        return options.get(DRAIN_MIN_ALLOCATIONS);
    }

    public List<IpRange> allowedPeerIps() {
        return options.get(ALLOWED_PEER_IP);
    }

    public List<IpRange> deniedPeerIps() {
        return options.get(DENIED_PEER_IP);
    }

    public boolean allowLoopbackPeers() {
        return options.get(ALLOW_LOOPBACK_PEERS);
    }

    public boolean noMulticastPeers() {
        return options.get(NO_MULTICAST_PEERS);
    }

    public boolean fingerprint() {
        return options.get(FINGERPRINT);
    }

    /** The SOFTWARE attribute's value, {@code Tern <version>}, unless it is turned off. */
    public Optional<String> softwareAttribute() {
        return options.get(SOFTWARE_ATTRIBUTE) ? Optional.of(defaultSoftwareAttribute()) : Optional.empty();
    }

    public boolean strictChannelNumbers() {
        return options.get(STRICT_CHANNEL_NUMBERS);
    }

    public boolean noUdp() {
        return options.get(NO_UDP);
    }

    public boolean noTcp() {
        return options.get(NO_TCP);
    }

    public boolean noTls() {
        return options.get(NO_TLS);
    }

    public boolean noDtls() {
        return options.get(NO_DTLS);
    }

    public int maxTcpConnections() {
        return options.get(MAX_TCP_CONNECTIONS);
    }

    public int maxTcpConnectionsPerIp() {
        return options.get(MAX_TCP_CONNECTIONS_PER_IP);
    }

    public int tcpIdleTimeoutSeconds() {
        return options.get(TCP_IDLE_TIMEOUT);
    }

    public int tcpMessageTimeoutSeconds() {
        return options.get(TCP_MESSAGE_TIMEOUT);
    }

    public int tlsHandshakeTimeoutSeconds() {
        return options.get(TLS_HANDSHAKE_TIMEOUT);
    }

    public int tcpWriteLowWaterMarkBytes() {
        return options.get(TCP_WRITE_LOW_WATER_MARK);
    }

    public int tcpWriteHighWaterMarkBytes() {
        return options.get(TCP_WRITE_HIGH_WATER_MARK);
    }

    public Optional<Path> cert() {
        return options.get(CERT);
    }

    public Optional<Path> pkey() {
        return options.get(PKEY);
    }

    public Optional<String> cipherList() {
        return options.get(CIPHER_LIST);
    }

    public boolean noTlsV1() {
        return options.get(NO_TLSV1);
    }

    public boolean noTlsV1_1() {
        return options.get(NO_TLSV1_1);
    }

    public boolean noTlsV1_2() {
        return options.get(NO_TLSV1_2);
    }

    public Optional<String> logFile() {
        return options.get(LOG_FILE);
    }

    /** coturn's levels: {@code Verbose} (once on, on for good) wins over {@code verbose}. */
    public Verbosity verbosity() {
        if (options.get(VERBOSE_EXTRA)) {
            return Verbosity.EXTRA;
        }
        return options.get(VERBOSE) ? Verbosity.NORMAL : Verbosity.NONE;
    }

    public Optional<Path> pidFile() {
        return options.get(PIDFILE);
    }

    public boolean prometheus() {
        return options.get(PROMETHEUS);
    }

    public int prometheusPort() {
        return options.get(PROMETHEUS_PORT);
    }

    /** The software name sent in SOFTWARE when enabled: {@code Tern <version>}. */
    public static String defaultSoftwareAttribute() {
        return "Tern " + TernVersion.version();
    }

    /**
     * Secrets valid for TURN REST API credentials: the static ones, else the generated one; none
     * when {@code redis-userdb} holds them.
     */
    public List<String> restApiSecrets() {
        if (authMode != AuthMode.REST_SECRET) {
            return List.of();
        }
        return staticAuthSecrets().isEmpty() ? generatedSecret.stream().toList() : staticAuthSecrets();
    }

    /** {@code redis-userdb}: coturn's Redis user database, or empty. */
    public Optional<RedisAddress> redisUserdb() {
        return options.get(REDIS_USERDB);
    }

    /** Whether a TLS listener should start: not disabled and a certificate and key were given. */
    public boolean tlsEnabled() {
        return !noTls() && cert().isPresent() && pkey().isPresent();
    }

    /** Whether a DTLS listener should start: not disabled and a certificate and key were given. */
    public boolean dtlsEnabled() {
        return !noDtls() && cert().isPresent() && pkey().isPresent();
    }

    /** Number of relay threads to run, resolving 0 to the number of available processors. */
    public int effectiveRelayThreads() {
        return relayThreads() == 0 ? Runtime.getRuntime().availableProcessors() : relayThreads();
    }

    @Override
    public String toString() {
        return "TurnServerConfig["
                + ConfigSummary.format(this).replace('\n', ' ').trim() + "]";
    }
}
