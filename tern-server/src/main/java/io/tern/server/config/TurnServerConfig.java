package io.tern.server.config;

import io.tern.netty.stream.StreamSettings;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated, immutable configuration of {@code tern turn}. Build it with
 * {@link TurnServerConfigAssembler} from a coturn config file and/or command-line options;
 * the canonical constructor only checks invariants that hold for any instance.
 *
 * <p>Addresses: an empty {@code relayIps} means "none given" and the server picks the relay
 * addresses itself (coturn: the listening addresses, else all local ones).
 *
 * <p>Authentication: {@link #authMode()} is never ambiguous. In {@link AuthMode#REST_SECRET}
 * mode {@link #restApiSecrets()} is non-empty; if no static secret was given it holds the
 * {@link #generatedSecret()}, which the launcher must print once at start.
 *
 * <p>{@link #toString()} redacts secrets and keys.
 */
public record TurnServerConfig(
        int listeningPort,
        int tlsListeningPort,
        List<InetAddress> listeningIps,
        List<InetAddress> relayIps,
        List<ExternalIpMapping> externalIps,
        int minPort,
        int maxPort,
        int relayThreads,
        String realm,
        AuthMode authMode,
        List<StaticUser> staticUsers,
        List<String> staticAuthSecrets,
        Optional<String> generatedSecret,
        char restApiSeparator,
        int userQuota,
        int totalQuota,
        int maxAllocations,
        int defaultAllocationLifetimeSeconds,
        int maxAllocateLifetimeSeconds,
        int channelLifetimeSeconds,
        int permissionLifetimeSeconds,
        int staleNonceSeconds,
        List<IpRange> allowedPeerIps,
        List<IpRange> deniedPeerIps,
        boolean allowLoopbackPeers,
        boolean noMulticastPeers,
        boolean fingerprint,
        Optional<String> softwareAttribute,
        boolean strictChannelNumbers,
        boolean noUdp,
        boolean noTcp,
        boolean noTls,
        boolean noDtls,
        int maxTcpConnections,
        int maxTcpConnectionsPerIp,
        int tcpIdleTimeoutSeconds,
        int tcpMessageTimeoutSeconds,
        int tlsHandshakeTimeoutSeconds,
        int tcpWriteLowWaterMarkBytes,
        int tcpWriteHighWaterMarkBytes,
        Optional<Path> cert,
        Optional<Path> pkey,
        Optional<String> cipherList,
        boolean noTlsV1,
        boolean noTlsV1_1,
        boolean noTlsV1_2,
        Optional<String> logFile,
        Verbosity verbosity,
        Optional<Path> pidFile,
        boolean prometheus,
        int prometheusPort) {
    public static final int DEFAULT_LISTENING_PORT = 3478;
    public static final int DEFAULT_TLS_LISTENING_PORT = 5349;
    public static final int DEFAULT_MIN_PORT = 49152;
    public static final int DEFAULT_MAX_PORT = 65535;
    /** 1 thread; 0 means one per core. */
    public static final int DEFAULT_RELAY_THREADS = 1;
    /**
     * coturn falls back to the host's domain name, which is often empty; Tern uses a fixed,
     * visible name so that long-term keys ({@code MD5(user:realm:password)}) are predictable.
     */
    public static final String DEFAULT_REALM = "tern";

    public static final char DEFAULT_REST_API_SEPARATOR = ':';
    public static final int DEFAULT_MAX_ALLOCATIONS = 100_000;
    /** RFC 8656 section 3.2: 10 minutes when the client does not ask for a lifetime. */
    public static final int DEFAULT_ALLOCATION_LIFETIME_SECONDS = 600;

    public static final int DEFAULT_MAX_ALLOCATE_LIFETIME_SECONDS = 3600;
    public static final int DEFAULT_CHANNEL_LIFETIME_SECONDS = 600;
    public static final int DEFAULT_PERMISSION_LIFETIME_SECONDS = 300;
    public static final int DEFAULT_STALE_NONCE_SECONDS = 600;
    public static final int DEFAULT_PROMETHEUS_PORT = 9641;
    public static final int DEFAULT_MAX_TCP_CONNECTIONS = StreamSettings.DEFAULT_MAX_CONNECTIONS;
    public static final int DEFAULT_MAX_TCP_CONNECTIONS_PER_IP = StreamSettings.DEFAULT_MAX_CONNECTIONS_PER_IP;
    public static final int DEFAULT_TCP_IDLE_TIMEOUT_SECONDS = StreamSettings.DEFAULT_IDLE_TIMEOUT_SECONDS;
    public static final int DEFAULT_TCP_MESSAGE_TIMEOUT_SECONDS = StreamSettings.DEFAULT_MESSAGE_TIMEOUT_SECONDS;
    public static final int DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS =
            StreamSettings.DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS;
    public static final int DEFAULT_TCP_WRITE_LOW_WATER_MARK_BYTES = StreamSettings.DEFAULT_WRITE_LOW_WATER_MARK_BYTES;
    public static final int DEFAULT_TCP_WRITE_HIGH_WATER_MARK_BYTES =
            StreamSettings.DEFAULT_WRITE_HIGH_WATER_MARK_BYTES;

    public TurnServerConfig {
        listeningIps = List.copyOf(listeningIps);
        relayIps = List.copyOf(relayIps);
        externalIps = List.copyOf(externalIps);
        staticUsers = List.copyOf(staticUsers);
        staticAuthSecrets = List.copyOf(staticAuthSecrets);
        allowedPeerIps = List.copyOf(allowedPeerIps);
        deniedPeerIps = List.copyOf(deniedPeerIps);
        Objects.requireNonNull(realm, "realm");
        Objects.requireNonNull(authMode, "authMode");
        Objects.requireNonNull(generatedSecret, "generatedSecret");
        Objects.requireNonNull(softwareAttribute, "softwareAttribute");
        Objects.requireNonNull(cert, "cert");
        Objects.requireNonNull(pkey, "pkey");
        Objects.requireNonNull(cipherList, "cipherList");
        Objects.requireNonNull(logFile, "logFile");
        Objects.requireNonNull(verbosity, "verbosity");
        Objects.requireNonNull(pidFile, "pidFile");
        if (minPort > maxPort) {
            throw new IllegalArgumentException("minPort > maxPort");
        }
        if (tcpWriteLowWaterMarkBytes > tcpWriteHighWaterMarkBytes) {
            throw new IllegalArgumentException("tcpWriteLowWaterMarkBytes > tcpWriteHighWaterMarkBytes");
        }
        if (authMode == AuthMode.REST_SECRET && staticAuthSecrets.isEmpty() && generatedSecret.isEmpty()) {
            throw new IllegalArgumentException("REST_SECRET mode needs a secret");
        }
    }

    /** The software name sent in SOFTWARE when enabled: {@code Tern <version>}. */
    public static String defaultSoftwareAttribute() {
        return "Tern " + TernVersion.version();
    }

    /** Secrets valid for TURN REST API credentials: the static ones, else the generated one. */
    public List<String> restApiSecrets() {
        if (authMode != AuthMode.REST_SECRET) {
            return List.of();
        }
        return staticAuthSecrets.isEmpty() ? List.of(generatedSecret.orElseThrow()) : staticAuthSecrets;
    }

    /** Whether a TLS listener should start: not disabled and a certificate and key were given. */
    public boolean tlsEnabled() {
        return !noTls && cert.isPresent() && pkey.isPresent();
    }

    /** Whether a DTLS listener should start: not disabled and a certificate and key were given. */
    public boolean dtlsEnabled() {
        return !noDtls && cert.isPresent() && pkey.isPresent();
    }

    /** Number of relay threads to run, resolving 0 to the number of available processors. */
    public int effectiveRelayThreads() {
        return relayThreads == 0 ? Runtime.getRuntime().availableProcessors() : relayThreads;
    }

    @Override
    public String toString() {
        return "TurnServerConfig["
                + ConfigSummary.format(this).replace('\n', ' ').trim() + "]";
    }
}
