package io.tern.server.config;

import io.tern.server.config.OptionDef.Arity;
import io.tern.server.config.OptionDef.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table of every option name Tern recognises: coturn's own (from coturn's
 * {@code long_options[]} in {@code src/apps/relay/mainrelay.c}) plus Tern's few extensions.
 * Both the config-file reader and the command line are built from this one table.
 *
 * <p>An option not in this table is an error, in a file or on the command line.
 */
public final class CoturnOptions {
    private static final Map<String, OptionDef> BY_NAME = new LinkedHashMap<>();

    /** coturn's one-letter aliases for options Tern does not support, so that they are recognised too. */
    private static final Map<String, String> UNSUPPORTED_SHORT_NAMES = Map.ofEntries(
            Map.entry("listening-device", "-d"),
            Map.entry("relay-device", "-i"),
            Map.entry("userdb", "-b"),
            Map.entry("bps-capacity", "-B"),
            Map.entry("psql-userdb", "-e"),
            Map.entry("mysql-userdb", "-M"),
            Map.entry("mongo-userdb", "-J"),
            Map.entry("redis-userdb", "-N"),
            Map.entry("redis-statsdb", "-O"),
            Map.entry("max-bps", "-s"),
            Map.entry("keep-address-family", "-K"),
            Map.entry("allocation-default-address-family", "-A"),
            Map.entry("daemon", "-o"),
            Map.entry("stun-only", "-S"));

    static {
        // ---- listeners ------------------------------------------------------------------
        supported(
                "listening-port",
                "-p",
                Arity.REQUIRED_VALUE,
                false,
                "<port>",
                "TURN listener port for UDP and TCP. Default: " + TurnServerConfig.DEFAULT_LISTENING_PORT + ".");
        supported(
                "tls-listening-port",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<port>",
                "TURN listener port for TLS (and DTLS). Needs --cert and --pkey. Default: "
                        + TurnServerConfig.DEFAULT_TLS_LISTENING_PORT + ".");
        supported(
                "listening-ip",
                "-L",
                Arity.REQUIRED_VALUE,
                true,
                "<ip>",
                "Listener IP address; repeat for several. Default: 0.0.0.0 (every IPv4 address); '-L ::' instead serves IPv4 and IPv6.");
        supported(
                "relay-ip",
                "-E",
                Arity.REQUIRED_VALUE,
                true,
                "<ip>",
                "Relay IP address (local address used towards peers); repeat for several. "
                        + "Default: none, the server picks from the listening addresses.");
        supported(
                "external-ip",
                "-X",
                Arity.REQUIRED_VALUE,
                true,
                "<public[/private]>",
                "Public IP reported in XOR-RELAYED-ADDRESS when behind NAT: 'public' or 'public/private'; "
                        + "repeat the mapping form for several addresses. Default: none.");
        supported(
                "min-port",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<port>",
                "Lower bound of the UDP relay port range. Default: " + TurnServerConfig.DEFAULT_MIN_PORT + ".");
        supported(
                "max-port",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<port>",
                "Upper bound of the UDP relay port range. Default: " + TurnServerConfig.DEFAULT_MAX_PORT + ".");
        supported(
                "relay-threads",
                "-m",
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Number of relay threads; 0 means one per CPU core. Default: " + TurnServerConfig.DEFAULT_RELAY_THREADS
                        + ".");
        supported("no-udp", null, Arity.FLAG, false, "", "Do not start UDP client listeners. Default: off.");
        supported("no-tcp", null, Arity.FLAG, false, "", "Do not start TCP client listeners. Default: off.");
        supported("no-tls", null, Arity.FLAG, false, "", "Do not start TLS client listeners. Default: off.");
        supported("no-dtls", null, Arity.FLAG, false, "", "Do not start DTLS client listeners. Default: off.");

        // ---- TCP and TLS connections (Tern extensions; coturn has no such bounds) -------
        supported(
                "max-tcp-connections",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Tern extension: TCP and TLS client connections open at once, over all listeners; past it new "
                        + "connections are closed at once. Default: " + TurnServerConfig.DEFAULT_MAX_TCP_CONNECTIONS
                        + ".");
        supported(
                "max-tcp-connections-per-ip",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Tern extension: TCP and TLS client connections open at once from one client IP address. Default: "
                        + TurnServerConfig.DEFAULT_MAX_TCP_CONNECTIONS_PER_IP + ".");
        supported(
                "tcp-idle-timeout",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<seconds>",
                "Tern extension: a TCP or TLS connection without an allocation that received nothing for this "
                        + "long is closed. Default: " + TurnServerConfig.DEFAULT_TCP_IDLE_TIMEOUT_SECONDS + ".");
        supported(
                "tcp-message-timeout",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<seconds>",
                "Tern extension: a TCP or TLS connection whose message is still incomplete this long after its "
                        + "first byte is closed (slow-loris defence). Default: "
                        + TurnServerConfig.DEFAULT_TCP_MESSAGE_TIMEOUT_SECONDS + ".");
        supported(
                "tls-handshake-timeout",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<seconds>",
                "Tern extension: a TLS handshake not done within this closes the connection. Default: "
                        + TurnServerConfig.DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS + ".");
        supported(
                "tcp-write-low-water-mark",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<bytes>",
                "Tern extension: once a TCP or TLS client's send queue is back below this, data relayed to it "
                        + "flows again. Default: " + TurnServerConfig.DEFAULT_TCP_WRITE_LOW_WATER_MARK_BYTES + ".");
        supported(
                "tcp-write-high-water-mark",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<bytes>",
                "Tern extension: past this many bytes queued for a TCP or TLS client, data relayed to it is "
                        + "dropped (and counted); at least tcp-write-low-water-mark. Default: "
                        + TurnServerConfig.DEFAULT_TCP_WRITE_HIGH_WATER_MARK_BYTES + ".");

        // ---- authentication -------------------------------------------------------------
        supported(
                "realm",
                "-r",
                Arity.REQUIRED_VALUE,
                false,
                "<realm>",
                "Realm used for long-term credentials and the TURN REST API. Default: '"
                        + TurnServerConfig.DEFAULT_REALM + "' (coturn falls back to the host's domain name).");
        supported(
                "lt-cred-mech",
                "-a",
                Arity.FLAG,
                false,
                "",
                "Use the long-term credential mechanism with the static --user accounts. Default: off.");
        supported(
                "no-auth",
                "-z",
                Arity.FLAG,
                false,
                "",
                "Allow anonymous access (open relay). Default: off. Without any auth option Tern runs the "
                        + "TURN REST API with a freshly generated secret, printed once at start.");
        supported(
                "user",
                "-u",
                Arity.REQUIRED_VALUE,
                true,
                "<name:password>",
                "Static long-term user, 'name:password' or 'name:0x<32 hex digits>' where the key is "
                        + "MD5(name:realm:password); repeat for several. Default: none.");
        supported(
                "use-auth-secret",
                null,
                Arity.FLAG,
                false,
                "",
                "TURN REST API (time-limited credentials from a shared secret). Without --static-auth-secret "
                        + "Tern generates a random secret and prints it once. Default: off.");
        supported(
                "static-auth-secret",
                null,
                Arity.REQUIRED_VALUE,
                true,
                "<secret>",
                "Shared secret for the TURN REST API; implies --use-auth-secret; repeat for several. Default: none.");
        supported(
                "rest-api-separator",
                "-C",
                Arity.REQUIRED_VALUE,
                false,
                "<char>",
                "Timestamp/username separator in TURN REST API user names. Default: ':'.");

        // ---- limits and lifetimes -------------------------------------------------------
        supported(
                "user-quota",
                "-q",
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Concurrent allocations per user; 0 means unlimited. Default: 0.");
        supported(
                "total-quota",
                "-Q",
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Concurrent allocations in total; 0 means unlimited. Default: 0.");
        supported(
                "max-allocations",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<n>",
                "Tern extension: hard upper bound on open allocations, whatever the quotas say. Default: "
                        + TurnServerConfig.DEFAULT_MAX_ALLOCATIONS + ".");
        supported(
                "max-allocate-lifetime",
                null,
                Arity.OPTIONAL_VALUE,
                false,
                "<seconds>",
                "Maximum allocation lifetime in seconds. Default: "
                        + TurnServerConfig.DEFAULT_MAX_ALLOCATE_LIFETIME_SECONDS + ".");
        supported(
                "channel-lifetime",
                null,
                Arity.OPTIONAL_VALUE,
                false,
                "<seconds>",
                "Channel binding lifetime in seconds. Default: " + TurnServerConfig.DEFAULT_CHANNEL_LIFETIME_SECONDS
                        + ".");
        supported(
                "permission-lifetime",
                null,
                Arity.OPTIONAL_VALUE,
                false,
                "<seconds>",
                "Permission lifetime in seconds. Default: " + TurnServerConfig.DEFAULT_PERMISSION_LIFETIME_SECONDS
                        + ".");
        supported(
                "stale-nonce",
                null,
                Arity.OPTIONAL_VALUE,
                false,
                "<seconds>",
                "Nonce lifetime in seconds; 0 means unlimited; without a value 600. Default: "
                        + TurnServerConfig.DEFAULT_STALE_NONCE_SECONDS + ".");

        // ---- peers ----------------------------------------------------------------------
        supported(
                "allowed-peer-ip",
                null,
                Arity.REQUIRED_VALUE,
                true,
                "<ip[-ip]>",
                "Peer address or range explicitly allowed ('ip', 'ip1-ip2', or CIDR 'ip/n' as a Tern "
                        + "extension); wins over --denied-peer-ip; repeat for several. Default: none.");
        supported(
                "denied-peer-ip",
                null,
                Arity.REQUIRED_VALUE,
                true,
                "<ip[-ip]>",
                "Peer address or range refused (same syntax as --allowed-peer-ip); repeat for several. Default: none.");
        supported(
                "allow-loopback-peers",
                null,
                Arity.FLAG,
                false,
                "",
                "Allow peers on loopback addresses (127.x.x.x, ::1). For testing only. Default: off.");
        supported(
                "no-multicast-peers",
                null,
                Arity.FLAG,
                false,
                "",
                "Refuse peers on multicast addresses (224.0.0.0/4, ff00::/8). Default: off.");

        // ---- STUN behaviour -------------------------------------------------------------
        supported("fingerprint", "-f", Arity.FLAG, false, "", "Add FINGERPRINT to TURN messages. Default: off.");
        supported(
                "software-attribute",
                null,
                Arity.FLAG,
                false,
                "",
                "Send the SOFTWARE attribute ('Tern <version>'). Default: on.");
        supported(
                "no-software-attribute",
                null,
                Arity.FLAG,
                false,
                "",
                "Do not send the SOFTWARE attribute (hides the version). Default: off.");
        supported(
                "strict-channel-numbers",
                null,
                Arity.FLAG,
                false,
                "",
                "Tern extension: ChannelBind accepts only RFC 8656's channel numbers, 0x4000-0x4FFF. Without it "
                        + "RFC 5766's 0x4000-0x7FFF are accepted too, as coturn does (its turnutils_uclient uses them). "
                        + "Default: off.");

        // ---- TLS ------------------------------------------------------------------------
        supported(
                "cert",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<file>",
                "Certificate file, PEM; relative paths are resolved against the config file's directory. "
                        + "Default: none (TLS/DTLS listeners stay off).");
        supported(
                "pkey",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<file>",
                "Private key file, PEM; same path rules as --cert. Default: none.");
        supported(
                "cipher-list",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<ciphers>",
                "Allowed cipher list for TLS/DTLS. Default: the TLS library's default.");
        supported("no-tlsv1", null, Arity.FLAG, false, "", "Refuse TLS 1.0. Default: off.");
        supported("no-tlsv1_1", null, Arity.FLAG, false, "", "Refuse TLS 1.1. Default: off.");
        supported("no-tlsv1_2", null, Arity.FLAG, false, "", "Refuse TLS 1.2. Default: off.");

        // ---- operations -----------------------------------------------------------------
        supported(
                "log-file",
                "-l",
                Arity.REQUIRED_VALUE,
                false,
                "<file>",
                "Log file; 'stdout' or '-' for standard output, 'syslog' for the system log. "
                        + "Default: standard output.");
        supported("verbose", "-v", Arity.FLAG, false, "", "Moderate verbose logging. Default: off.");
        supported("Verbose", "-V", Arity.FLAG, false, "", "Extra verbose logging (debugging only). Default: off.");
        supported(
                "pidfile",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<file>",
                "File to write the process id to. Default: none (coturn: /var/run/turnserver.pid).");
        supported("prometheus", null, Arity.FLAG, false, "", "Expose Prometheus metrics on /metrics. Default: off.");
        supported(
                "prometheus-port",
                null,
                Arity.REQUIRED_VALUE,
                false,
                "<port>",
                "Prometheus metrics port. Default: " + TurnServerConfig.DEFAULT_PROMETHEUS_PORT + ".");

        alwaysTrue("no-cli", "Tern has no telnet CLI; accepted and ignored.");

        // ---- known coturn options Tern ignores, with one warning each -------------------
        for (final String flag : List.of(
                "udp-self-balance",
                "no-auth-pings",
                "no-dynamic-ip-list",
                "no-dynamic-realms",
                "oauth",
                "daemon",
                "check-origin-consistency",
                "no-udp-relay",
                "no-tcp-relay",
                "stun-only",
                "no-stun",
                "raw-public-keys",
                "no-stdout-log",
                "syslog",
                "simple-log",
                "new-log-timestamp",
                "secure-stun",
                "mobility",
                "web-admin",
                "web-admin-listen-on-workers",
                "server-relay",
                "dh566",
                "dh1066",
                "keep-address-family",
                "log-binding",
                "no-rfc5780",
                "no-stun-backward-compatibility",
                "response-origin-only-with-rfc5780",
                "respond-http-unsupported",
                "prometheus-username-labels",
                "version")) {
            unsupported(flag, Arity.FLAG);
        }
        for (final String valued : List.of(
                "listening-device",
                "alt-listening-port",
                "alt-tls-listening-port",
                "tcp-proxy-port",
                "relay-device",
                "userdb",
                "db",
                "psql-userdb",
                "sql-userdb",
                "mysql-userdb",
                "mongo-userdb",
                "redis-userdb",
                "redis-statsdb",
                "prometheus-address",
                "server-name",
                "max-bps",
                "bps-capacity",
                "pkey-pwd",
                "new-log-timestamp-format",
                "syslog-facility",
                "aux-server",
                "alternate-server",
                "tls-alternate-server",
                "max-allocate-timeout",
                "CA-file",
                "dh-file",
                "proc-user",
                "proc-group",
                "cli-ip",
                "cli-port",
                "cli-password",
                "web-admin-ip",
                "web-admin-port",
                "cli-max-output-sessions",
                "ec-curve-name",
                "ne",
                "secret-key-file",
                "allocation-default-address-family",
                "acme-redirect")) {
            unsupported(valued, Arity.REQUIRED_VALUE);
        }
    }

    private static final List<OptionDef> ALL = Collections.unmodifiableList(new ArrayList<>(BY_NAME.values()));

    private CoturnOptions() {}

    /** The definition for {@code name} (case-sensitive, no dashes), or {@code null} if unknown. */
    public static OptionDef find(final String name) {
        return BY_NAME.get(name);
    }

    /** Every known option, in table order. */
    public static List<OptionDef> all() {
        return ALL;
    }

    public static List<OptionDef> withStatus(final Status status) {
        return ALL.stream().filter(option -> option.status() == status).toList();
    }

    private static void supported(
            final String name,
            final String shortName,
            final Arity arity,
            final boolean repeatable,
            final String paramLabel,
            final String description) {
        add(new OptionDef(name, shortName, arity, repeatable, Status.SUPPORTED, paramLabel, description));
    }

    private static void alwaysTrue(final String name, final String description) {
        add(new OptionDef(name, null, Arity.FLAG, false, Status.ALWAYS_TRUE, "", description));
    }

    private static void unsupported(final String name, final Arity arity) {
        add(new OptionDef(
                name,
                UNSUPPORTED_SHORT_NAMES.get(name),
                arity,
                true,
                Status.UNSUPPORTED,
                arity == Arity.FLAG ? "" : "<value>",
                "coturn option not supported by Tern; ignored with a warning."));
    }

    private static void add(final OptionDef option) {
        if (BY_NAME.putIfAbsent(option.name(), option) != null) {
            throw new IllegalStateException("duplicate option " + option.name());
        }
    }
}
