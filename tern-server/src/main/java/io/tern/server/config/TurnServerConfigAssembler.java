package io.tern.server.config;

import io.tern.server.config.OptionDef.Status;
import io.tern.stun.address.IpLiterals;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns option occurrences from a config file and from the command line into a validated
 * {@link TurnServerConfig}.
 *
 * <p>Precedence: the command line overrides the file. For a single-valued option the last
 * occurrence wins (as in coturn). For a repeatable option ({@code user}, {@code listening-ip},
 * ...) occurrences accumulate within one source, and any occurrence on the command line
 * replaces all of the file's; coturn instead adds command-line values to the file's.
 *
 * <p>Authentication is resolved like coturn's main() where Tern can follow it:
 * <ul>
 *   <li>{@code no-auth} with {@code lt-cred-mech} or {@code use-auth-secret}: error;</li>
 *   <li>{@code use-auth-secret} (or any {@code static-auth-secret}) wins over
 *       {@code lt-cred-mech}, with a warning; static users are then ignored, with a warning;</li>
 *   <li>{@code user} without {@code lt-cred-mech}: long-term credentials, with a warning;</li>
 *   <li>{@code lt-cred-mech} without any {@code user}: error (Tern has no user database);</li>
 *   <li>no auth option at all: Tern deviates from coturn (which would run an open relay) and
 *       runs the TURN REST API with a generated secret, as it also does for
 *       {@code use-auth-secret} without {@code static-auth-secret}.</li>
 * </ul>
 */
public final class TurnServerConfigAssembler {
    private static final int SECRET_BYTES = 32;
    private static final int MAX_RELAY_THREADS = 1024;
    private static final int MAX_REALM_CHARS = 127;
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,10}");

    private final WarningSink warnings;
    private final SecureRandom random;

    public TurnServerConfigAssembler(final WarningSink warnings) {
        this(warnings, new SecureRandom());
    }

    public TurnServerConfigAssembler(final WarningSink warnings, final SecureRandom random) {
        this.warnings = Objects.requireNonNull(warnings, "warnings");
        this.random = Objects.requireNonNull(random, "random");
    }

    /**
     * @param fileValues        occurrences from the config file, in file order (may be empty)
     * @param commandLineValues occurrences from the command line, in argument order (may be empty)
     * @throws ConfigException naming the option, the value and its source
     */
    public TurnServerConfig assemble(final List<OptionValue> fileValues, final List<OptionValue> commandLineValues) {
        final Set<String> repeatedOnCommandLine = new HashSet<>();
        for (final OptionValue value : commandLineValues) {
            if (value.option().repeatable()) {
                repeatedOnCommandLine.add(value.name());
            }
        }
        final List<OptionValue> effective = new ArrayList<>(fileValues.size() + commandLineValues.size());
        for (final OptionValue value : fileValues) {
            if (!(value.option().repeatable() && repeatedOnCommandLine.contains(value.name()))) {
                effective.add(value);
            }
        }
        effective.addAll(commandLineValues);

        final Draft draft = new Draft();
        final Set<String> warnedUnsupported = new HashSet<>();
        for (final OptionValue value : effective) {
            final Status status = value.option().status();
            if (status == Status.UNSUPPORTED) {
                if (warnedUnsupported.add(value.name())) {
                    warnings.warn("coturn option '" + value.name() + "' is not supported by Tern and is ignored");
                }
            } else if (status == Status.SUPPORTED) {
                apply(draft, value);
                draft.sources.put(value.name(), value);
            }
        }
        return finish(draft);
    }

    // ---------------------------------------------------------------------------------------------

    /** Mutable state while options are applied in order. */
    private static final class Draft {
        final Map<String, OptionValue> sources = new HashMap<>();
        int listeningPort = TurnServerConfig.DEFAULT_LISTENING_PORT;
        int tlsListeningPort = TurnServerConfig.DEFAULT_TLS_LISTENING_PORT;
        final List<InetAddress> listeningIps = new ArrayList<>();
        final List<InetAddress> relayIps = new ArrayList<>();
        final List<ExternalIpMapping> externalIps = new ArrayList<>();
        int minPort = TurnServerConfig.DEFAULT_MIN_PORT;
        int maxPort = TurnServerConfig.DEFAULT_MAX_PORT;
        int relayThreads = TurnServerConfig.DEFAULT_RELAY_THREADS;
        String realm = TurnServerConfig.DEFAULT_REALM;
        boolean ltCredMech;
        boolean noAuth;
        boolean useAuthSecret;
        final List<OptionValue> users = new ArrayList<>();
        final List<String> staticAuthSecrets = new ArrayList<>();
        char restApiSeparator = TurnServerConfig.DEFAULT_REST_API_SEPARATOR;
        int userQuota;
        int totalQuota;
        int maxAllocations = TurnServerConfig.DEFAULT_MAX_ALLOCATIONS;
        int maxAllocateLifetimeSeconds = TurnServerConfig.DEFAULT_MAX_ALLOCATE_LIFETIME_SECONDS;
        int channelLifetimeSeconds = TurnServerConfig.DEFAULT_CHANNEL_LIFETIME_SECONDS;
        int permissionLifetimeSeconds = TurnServerConfig.DEFAULT_PERMISSION_LIFETIME_SECONDS;
        int staleNonceSeconds = TurnServerConfig.DEFAULT_STALE_NONCE_SECONDS;
        final List<IpRange> allowedPeerIps = new ArrayList<>();
        final List<IpRange> deniedPeerIps = new ArrayList<>();
        boolean allowLoopbackPeers;
        boolean noMulticastPeers;
        boolean fingerprint;
        boolean softwareAttribute = true;
        boolean strictChannelNumbers;
        boolean noUdp;
        boolean noTcp;
        boolean noTls;
        boolean noDtls;
        int maxTcpConnections = TurnServerConfig.DEFAULT_MAX_TCP_CONNECTIONS;
        int maxTcpConnectionsPerIp = TurnServerConfig.DEFAULT_MAX_TCP_CONNECTIONS_PER_IP;
        int tcpIdleTimeoutSeconds = TurnServerConfig.DEFAULT_TCP_IDLE_TIMEOUT_SECONDS;
        int tcpMessageTimeoutSeconds = TurnServerConfig.DEFAULT_TCP_MESSAGE_TIMEOUT_SECONDS;
        int tlsHandshakeTimeoutSeconds = TurnServerConfig.DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS;
        int tcpWriteLowWaterMarkBytes = TurnServerConfig.DEFAULT_TCP_WRITE_LOW_WATER_MARK_BYTES;
        int tcpWriteHighWaterMarkBytes = TurnServerConfig.DEFAULT_TCP_WRITE_HIGH_WATER_MARK_BYTES;
        Path cert;
        Path pkey;
        String cipherList;
        boolean noTlsV1;
        boolean noTlsV1_1;
        boolean noTlsV1_2;
        String logFile;
        Verbosity verbosity = Verbosity.NONE;
        Path pidFile;
        boolean prometheus;
        int prometheusPort = TurnServerConfig.DEFAULT_PROMETHEUS_PORT;
    }

    private static void apply(final Draft d, final OptionValue v) {
        switch (v.name()) {
            case "listening-port" -> d.listeningPort = port(v);
            case "tls-listening-port" -> d.tlsListeningPort = port(v);
            case "listening-ip" -> d.listeningIps.add(ip(v));
            case "relay-ip" -> d.relayIps.add(ip(v));
            case "external-ip" -> d.externalIps.add(externalIp(v));
            case "min-port" -> d.minPort = port(v);
            case "max-port" -> d.maxPort = port(v);
            case "relay-threads" -> d.relayThreads = integer(v, 0, MAX_RELAY_THREADS);
            case "no-udp" -> d.noUdp = bool(v);
            case "no-tcp" -> d.noTcp = bool(v);
            case "no-tls" -> d.noTls = bool(v);
            case "no-dtls" -> d.noDtls = bool(v);
            case "max-tcp-connections" -> d.maxTcpConnections = integer(v, 1, Integer.MAX_VALUE);
            case "max-tcp-connections-per-ip" -> d.maxTcpConnectionsPerIp = integer(v, 1, Integer.MAX_VALUE);
            case "tcp-idle-timeout" -> d.tcpIdleTimeoutSeconds = integer(v, 1, Integer.MAX_VALUE);
            case "tcp-message-timeout" -> d.tcpMessageTimeoutSeconds = integer(v, 1, Integer.MAX_VALUE);
            case "tls-handshake-timeout" -> d.tlsHandshakeTimeoutSeconds = integer(v, 1, Integer.MAX_VALUE);
            case "tcp-write-low-water-mark" -> d.tcpWriteLowWaterMarkBytes = integer(v, 0, Integer.MAX_VALUE);
            case "tcp-write-high-water-mark" -> d.tcpWriteHighWaterMarkBytes = integer(v, 1, Integer.MAX_VALUE);
            case "realm" -> d.realm = realm(v);
            case "lt-cred-mech" -> d.ltCredMech = bool(v);
            case "no-auth" -> d.noAuth = bool(v);
            case "user" -> d.users.add(required(v));
            case "use-auth-secret" -> d.useAuthSecret = bool(v);
            case "static-auth-secret" -> {
                d.staticAuthSecrets.add(required(v).value());
                d.useAuthSecret = true;
            }
            case "rest-api-separator" -> d.restApiSeparator = separator(v);
            case "user-quota" -> d.userQuota = integer(v, 0, Integer.MAX_VALUE);
            case "total-quota" -> d.totalQuota = integer(v, 0, Integer.MAX_VALUE);
            case "max-allocations" -> d.maxAllocations = integer(v, 1, Integer.MAX_VALUE);
            case "max-allocate-lifetime" ->
                d.maxAllocateLifetimeSeconds =
                        optionalInteger(v, TurnServerConfig.DEFAULT_MAX_ALLOCATE_LIFETIME_SECONDS, 1);
            case "channel-lifetime" ->
                d.channelLifetimeSeconds = optionalInteger(v, TurnServerConfig.DEFAULT_CHANNEL_LIFETIME_SECONDS, 1);
            case "permission-lifetime" ->
                d.permissionLifetimeSeconds =
                        optionalInteger(v, TurnServerConfig.DEFAULT_PERMISSION_LIFETIME_SECONDS, 1);
            case "stale-nonce" ->
                d.staleNonceSeconds = optionalInteger(v, TurnServerConfig.DEFAULT_STALE_NONCE_SECONDS, 0);
            case "allowed-peer-ip" -> d.allowedPeerIps.add(ipRange(v));
            case "denied-peer-ip" -> d.deniedPeerIps.add(ipRange(v));
            case "allow-loopback-peers" -> d.allowLoopbackPeers = bool(v);
            case "no-multicast-peers" -> d.noMulticastPeers = bool(v);
            case "fingerprint" -> d.fingerprint = bool(v);
            case "software-attribute" -> d.softwareAttribute = bool(v);
            case "no-software-attribute" -> d.softwareAttribute = !bool(v);
            case "strict-channel-numbers" -> d.strictChannelNumbers = bool(v);
            case "cert" -> d.cert = keyFile(v);
            case "pkey" -> d.pkey = keyFile(v);
            case "cipher-list" -> d.cipherList = required(v).value();
            case "no-tlsv1" -> d.noTlsV1 = bool(v);
            case "no-tlsv1_1" -> d.noTlsV1_1 = bool(v);
            case "no-tlsv1_2" -> d.noTlsV1_2 = bool(v);
            case "log-file" -> d.logFile = required(v).value();
            case "verbose" -> {
                final boolean on = bool(v);
                if (d.verbosity != Verbosity.EXTRA) {
                    d.verbosity = on ? Verbosity.NORMAL : Verbosity.NONE;
                }
            }
            case "Verbose" -> {
                if (bool(v)) {
                    d.verbosity = Verbosity.EXTRA;
                }
            }
            case "pidfile" -> d.pidFile = path(v);
            case "prometheus" -> d.prometheus = bool(v);
            case "prometheus-port" -> d.prometheusPort = port(v);
            default -> throw new IllegalStateException("supported option without handler: " + v.name());
        }
    }

    private TurnServerConfig finish(final Draft d) {
        if (d.minPort > d.maxPort) {
            throw new ConfigException("min-port " + d.minPort + " > max-port " + d.maxPort + " (min-port "
                    + where(d, "min-port") + ", max-port " + where(d, "max-port") + ")");
        }
        if (d.tcpWriteLowWaterMarkBytes > d.tcpWriteHighWaterMarkBytes) {
            throw new ConfigException("tcp-write-low-water-mark " + d.tcpWriteLowWaterMarkBytes
                    + " > tcp-write-high-water-mark " + d.tcpWriteHighWaterMarkBytes
                    + " (tcp-write-low-water-mark " + where(d, "tcp-write-low-water-mark")
                    + ", tcp-write-high-water-mark " + where(d, "tcp-write-high-water-mark") + ")");
        }
        final long bareExternalIps =
                d.externalIps.stream().filter(m -> m.privateIp().isEmpty()).count();
        if (bareExternalIps > 1) {
            final OptionValue last = d.sources.get("external-ip");
            throw ConfigException.invalidValue(
                    "external-ip",
                    last.value(),
                    "only one external-ip without '/private' is allowed; map several as public/private",
                    last.source());
        }

        // ---- TLS ----
        if ((d.cert == null) != (d.pkey == null)) {
            final String given = d.cert != null ? "cert" : "pkey";
            final String missing = d.cert != null ? "pkey" : "cert";
            final OptionValue v = d.sources.get(given);
            throw new ConfigException("Option '" + given + "' ('" + v.value() + "' "
                    + v.source().where() + ") needs option '" + missing + "' too");
        }
        if (d.cert == null && !d.noTls && d.sources.containsKey("tls-listening-port")) {
            final OptionValue v = d.sources.get("tls-listening-port");
            throw new ConfigException("Option 'tls-listening-port' ('" + v.value() + "' "
                    + v.source().where() + ") needs options 'cert' and 'pkey' (or set 'no-tls')");
        }
        if (d.cert != null && (!d.noTls || !d.noDtls)) {
            requireReadable(d, "cert", d.cert);
            requireReadable(d, "pkey", d.pkey);
        }
        if (d.cert != null && !d.noTls && !d.noTcp && d.listeningPort == d.tlsListeningPort) {
            throw new ConfigException("listening-port " + d.listeningPort + " " + where(d, "listening-port")
                    + " and tls-listening-port " + d.tlsListeningPort + " " + where(d, "tls-listening-port")
                    + " must differ");
        }

        // ---- auth ----
        final List<StaticUser> users = staticUsers(d);
        final AuthMode authMode = authMode(d, users);
        Optional<String> generatedSecret = Optional.empty();
        if (authMode == AuthMode.REST_SECRET && d.staticAuthSecrets.isEmpty()) {
            final byte[] secret = new byte[SECRET_BYTES];
            random.nextBytes(secret);
            generatedSecret = Optional.of(HexFormat.of().formatHex(secret));
        }
        if (d.allowLoopbackPeers) {
            warnings.warn("allow-loopback-peers " + where(d, "allow-loopback-peers")
                    + " opens a possible security vulnerability; do not use in production");
        }

        final List<InetAddress> listeningIps = d.listeningIps.isEmpty()
                // Not "::" as well: a dual-stack wildcard beside 0.0.0.0 on one SO_REUSEPORT port would
                // share IPv4 traffic between two sockets. "-L ::" alone serves both families.
                ? List.of(IpLiterals.parse("0.0.0.0"))
                : d.listeningIps;
        return new TurnServerConfig(
                d.listeningPort,
                d.tlsListeningPort,
                listeningIps,
                d.relayIps,
                d.externalIps,
                d.minPort,
                d.maxPort,
                d.relayThreads,
                d.realm,
                authMode,
                authMode == AuthMode.LONG_TERM ? users : List.of(),
                authMode == AuthMode.REST_SECRET ? d.staticAuthSecrets : List.of(),
                generatedSecret,
                d.restApiSeparator,
                d.userQuota,
                d.totalQuota,
                d.maxAllocations,
                Math.min(TurnServerConfig.DEFAULT_ALLOCATION_LIFETIME_SECONDS, d.maxAllocateLifetimeSeconds),
                d.maxAllocateLifetimeSeconds,
                d.channelLifetimeSeconds,
                d.permissionLifetimeSeconds,
                d.staleNonceSeconds,
                d.allowedPeerIps,
                d.deniedPeerIps,
                d.allowLoopbackPeers,
                d.noMulticastPeers,
                d.fingerprint,
                d.softwareAttribute ? Optional.of(TurnServerConfig.defaultSoftwareAttribute()) : Optional.empty(),
                d.strictChannelNumbers,
                d.noUdp,
                d.noTcp,
                d.noTls,
                d.noDtls,
                d.maxTcpConnections,
                d.maxTcpConnectionsPerIp,
                d.tcpIdleTimeoutSeconds,
                d.tcpMessageTimeoutSeconds,
                d.tlsHandshakeTimeoutSeconds,
                d.tcpWriteLowWaterMarkBytes,
                d.tcpWriteHighWaterMarkBytes,
                Optional.ofNullable(d.cert),
                Optional.ofNullable(d.pkey),
                Optional.ofNullable(d.cipherList),
                d.noTlsV1,
                d.noTlsV1_1,
                d.noTlsV1_2,
                Optional.ofNullable(d.logFile),
                d.verbosity,
                Optional.ofNullable(d.pidFile),
                d.prometheus,
                d.prometheusPort);
    }

    private AuthMode authMode(final Draft d, final List<StaticUser> users) {
        if (d.noAuth && (d.ltCredMech || d.useAuthSecret)) {
            final String other = d.ltCredMech
                    ? "lt-cred-mech"
                    : d.sources.containsKey("use-auth-secret") ? "use-auth-secret" : "static-auth-secret";
            throw new ConfigException("Options 'no-auth' " + where(d, "no-auth") + " and '" + other + "' "
                    + where(d, other) + " cannot be used together");
        }
        if (d.useAuthSecret) {
            if (d.ltCredMech) {
                warnings.warn("lt-cred-mech and use-auth-secret are both set: the shared secret (TURN REST API) "
                        + "is used, user name/password accounts are not");
            }
            if (!users.isEmpty()) {
                warnings.warn(users.size() + " 'user' account(s) ignored: they cannot be used with the TURN REST "
                        + "API (use-auth-secret)");
            }
            return AuthMode.REST_SECRET;
        }
        if (d.noAuth) {
            if (!users.isEmpty()) {
                warnings.warn(users.size() + " 'user' account(s) ignored because of 'no-auth'");
            }
            warnings.warn("no-auth: anonymous access, this server is an open relay");
            return AuthMode.NONE;
        }
        if (d.ltCredMech || !users.isEmpty()) {
            if (users.isEmpty()) {
                throw new ConfigException("Option 'lt-cred-mech' " + where(d, "lt-cred-mech")
                        + " needs at least one 'user' (Tern has no user database)");
            }
            if (!d.ltCredMech) {
                warnings.warn("'user' accounts given without 'lt-cred-mech': turning lt-cred-mech on");
            }
            return AuthMode.LONG_TERM;
        }
        return AuthMode.REST_SECRET;
    }

    /** coturn's add_static_user_account, applied after all options so the final realm is used. */
    private static List<StaticUser> staticUsers(final Draft d) {
        final Map<String, StaticUser> byName = new LinkedHashMap<>();
        for (final OptionValue v : d.users) {
            final String text = v.value();
            final int colon = text.indexOf(':');
            int secretStart = colon + 1;
            while (colon > 0
                    && secretStart < text.length()
                    && (text.charAt(secretStart) == ' ' || text.charAt(secretStart) == '\t')) {
                secretStart++;
            }
            if (colon <= 0 || secretStart >= text.length()) {
                throw ConfigException.invalidValue(
                        "user", text, "must be name:password or name:0x<32 hex digits>", v.source());
            }
            final String name = text.substring(0, colon);
            final String secret = text.substring(secretStart);
            final String keyHex;
            if (secret.startsWith("0x")) {
                keyHex = secret.substring(2);
                if (keyHex.length() != StaticUser.KEY_BYTES * 2 || !isHex(keyHex)) {
                    throw ConfigException.invalidValue(
                            "user", text, "the key after '0x' must be exactly 32 hex digits", v.source());
                }
            } else {
                keyHex = HexFormat.of().formatHex(md5(name + ":" + d.realm + ":" + secret));
            }
            byName.remove(name);
            byName.put(name, new StaticUser(name, keyHex));
        }
        return List.copyOf(byName.values());
    }

    // ---- value parsers ---------------------------------------------------------------------------

    private static OptionValue required(final OptionValue v) {
        if (v.value().isEmpty()) {
            throw ConfigException.invalidValue(v.name(), v.value(), "a value is required", v.source());
        }
        return v;
    }

    /** coturn's get_bool_value, minus its acceptance of any word starting with y/t/n/f. */
    static boolean bool(final OptionValue v) {
        final String text = v.value().trim().toLowerCase(Locale.ROOT);
        switch (text) {
            case "", "1", "on", "yes", "y", "true", "t" -> {
                return true;
            }
            case "0", "off", "no", "n", "false", "f" -> {
                return false;
            }
            default -> {
                if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9') && text.charAt(0) != '0') {
                    return true;
                }
                throw ConfigException.invalidValue(
                        v.name(), v.value(), "use on/off, yes/no, 1/0 or true/false", v.source());
            }
        }
    }

    private static int port(final OptionValue v) {
        return integer(v, 1, 65535);
    }

    private static int integer(final OptionValue v, final int min, final int max) {
        final String text = v.value().trim();
        final String range =
                max == Integer.MAX_VALUE ? "must be a whole number >= " + min : "must be " + min + "-" + max;
        if (!INTEGER.matcher(text).matches()) {
            throw ConfigException.invalidValue(v.name(), v.value(), range, v.source());
        }
        final long value = Long.parseLong(text);
        if (value < min || value > max) {
            throw ConfigException.invalidValue(v.name(), v.value(), range, v.source());
        }
        return (int) value;
    }

    /** coturn's get_int_value: an empty value means the default. */
    private static int optionalInteger(final OptionValue v, final int defaultValue, final int min) {
        return v.value().isEmpty() ? defaultValue : integer(v, min, Integer.MAX_VALUE);
    }

    private static InetAddress ip(final OptionValue v) {
        try {
            return IpLiterals.parse(required(v).value().trim());
        } catch (final IllegalArgumentException ex) {
            throw ConfigException.invalidValue(v.name(), v.value(), "not an IP address", v.source());
        }
    }

    private static ExternalIpMapping externalIp(final OptionValue v) {
        try {
            return ExternalIpMapping.parse(required(v).value());
        } catch (final IllegalArgumentException ex) {
            throw ConfigException.invalidValue(
                    v.name(),
                    v.value(),
                    "must be 'public-ip' or 'public-ip/private-ip': " + ex.getMessage(),
                    v.source());
        }
    }

    private static IpRange ipRange(final OptionValue v) {
        try {
            return IpRange.parse(required(v).value());
        } catch (final IllegalArgumentException ex) {
            throw ConfigException.invalidValue(
                    v.name(), v.value(), "must be 'ip', 'ip1-ip2' or 'ip/prefix': " + ex.getMessage(), v.source());
        }
    }

    private static String realm(final OptionValue v) {
        final String realm = required(v).value();
        if (realm.length() > MAX_REALM_CHARS) {
            throw ConfigException.invalidValue(
                    v.name(), realm, "must be at most " + MAX_REALM_CHARS + " characters", v.source());
        }
        return realm;
    }

    private static char separator(final OptionValue v) {
        final String text = required(v).value();
        if (text.length() != 1) {
            throw ConfigException.invalidValue(v.name(), text, "must be a single character", v.source());
        }
        return text.charAt(0);
    }

    private static Path path(final OptionValue v) {
        try {
            return Path.of(required(v).value());
        } catch (final InvalidPathException ex) {
            throw ConfigException.invalidValue(v.name(), v.value(), "not a valid path", v.source());
        }
    }

    /** coturn resolves cert/pkey relative to the config file. */
    private static Path keyFile(final OptionValue v) {
        final Path path = path(v);
        final ConfigSource source = v.source();
        if (path.isAbsolute() || source.isCommandLine()) {
            return path;
        }
        final Path parent = Path.of(source.file()).toAbsolutePath().getParent();
        return parent == null ? path : parent.resolve(path);
    }

    private static void requireReadable(final Draft d, final String option, final Path path) {
        if (!Files.isReadable(path) || Files.isDirectory(path)) {
            final OptionValue v = d.sources.get(option);
            throw ConfigException.invalidValue(option, v.value(), "file not readable: " + path, v.source());
        }
    }

    private static String where(final Draft d, final String option) {
        final OptionValue v = d.sources.get(option);
        return v == null ? ConfigSource.defaultValue().where() : v.source().where();
    }

    private static boolean isHex(final String text) {
        return text.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128);
    }

    private static byte[] md5(final String text) {
        try {
            return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (final NoSuchAlgorithmException ex) {
            throw new IllegalStateException("MD5 is required by every Java platform", ex);
        }
    }
}
