package io.tern.server.config;

import static io.tern.server.config.CoturnTypes.character;
import static io.tern.server.config.CoturnTypes.choice;
import static io.tern.server.config.CoturnTypes.externalIp;
import static io.tern.server.config.CoturnTypes.fileRelativeToConfig;
import static io.tern.server.config.CoturnTypes.flag;
import static io.tern.server.config.CoturnTypes.given;
import static io.tern.server.config.CoturnTypes.ip;
import static io.tern.server.config.CoturnTypes.ipRange;
import static io.tern.server.config.CoturnTypes.optionalInteger;
import static io.tern.server.config.CoturnTypes.path;
import static io.tern.server.config.CoturnTypes.port;
import static io.tern.server.config.CoturnTypes.raw;
import static io.tern.server.config.CoturnTypes.serverAddress;
import static io.tern.server.config.CoturnTypes.stickyFlag;
import static io.tern.server.config.CoturnTypes.text;
import static io.tern.server.option.OptionTypes.integer;
import static io.tern.server.option.OptionTypes.optional;
import static io.tern.server.option.OptionTypes.parsed;
import static io.tern.server.option.OptionTypes.repeatable;

import io.tern.cluster.RedisAddress;
import io.tern.netty.stream.StreamSettings;
import io.tern.server.option.Arity;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;
import io.tern.turn.engine.TurnEngineConfig;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The option table: one row per option Tern recognises, coturn's own (from coturn's
 * {@code long_options[]} in {@code src/apps/relay/mainrelay.c}) plus Tern's few extensions.
 * A row ({@link Option}, the kit's one row class) carries the option's names, its value type
 * (parser and validation), its default, its help and, being the key of {@link OptionValues}, the
 * field it sets. What {@code --print-config} writes beside a value from the whole configuration is
 * in a side table ({@link CoturnPrinting}), since the kit knows nothing of {@link TurnServerConfig}.
 * Adding an option is one row here and, if the server reads it, one accessor in
 * {@link TurnServerConfig}.
 *
 * <p>An option not in this table is an error, in a file or on the command line.
 */
public final class CoturnOptions {
    private static final List<Option<?>> ROWS = new ArrayList<>();
    /** What {@code --print-config} writes beside a row's value, for the rows that need more than the value. */
    private static final Map<Option<?>, CoturnPrinting> PRINTING = new HashMap<>();

    private static final int MAX_RELAY_THREADS = 1024;
    private static final int MAX_REALM_CHARS = 127;
    private static final int ANY = Integer.MAX_VALUE;

    // ---- listeners ------------------------------------------------------------------------------

    public static final Option<Integer> LISTENING_PORT = add(
            supported("listening-port").shortFlag("-p").type(port(), 3478).help("TURN listener port for UDP and TCP."));

    public static final Option<Integer> TLS_LISTENING_PORT = add(
            supported("tls-listening-port")
                    .type(port(), 5349)
                    .help("TURN listener port for TLS (and DTLS). Needs --cert and --pkey."),
            CoturnPrinting.note(c -> "TLS listener " + (c.tlsEnabled() ? "on" : "off") + ", DTLS listener "
                            + (c.dtlsEnabled() ? "on" : "off")
                            + (c.cert().isEmpty() && !(c.noTls() && c.noDtls()) ? " (no cert/pkey given)" : ""))
                    // Without cert, only the default can have been given, and read back it would need no-tls.
                    .printedIf(c -> c.cert().isPresent() || c.noTls()));

    public static final Option<List<InetAddress>> LISTENING_IP = add(
            supported("listening-ip")
                    .shortFlag("-L")
                    .type(repeatable(ip()), List.of())
                    .defaultText("'::' (every IPv4 and IPv6 address) where the host has IPv6, else 0.0.0.0")
                    .help("Listener IP address; repeat for several. '0.0.0.0' alone serves IPv4 only."),
            CoturnPrinting.note(
                    c -> c.listeningIps().isEmpty() ? "listening-ip: none given, every address of the host" : null));

    public static final Option<List<InetAddress>> RELAY_IP = add(
            supported("relay-ip")
                    .shortFlag("-E")
                    .type(repeatable(ip()), List.of())
                    .defaultText(
                            "for each family, a specific listening IP of it, else the host's first address of it that"
                                    + " is neither loopback nor link-local (IPv4 falls back to 127.0.0.1)")
                    .help("Relay IP address (local address used towards peers); repeat for several; the first IPv4 and"
                            + " the first IPv6 one are used."),
            CoturnPrinting.note(c -> c.relayIps().isEmpty() ? "relay-ip: none given, the server picks" : null));

    public static final Option<List<ExternalIpMapping>> EXTERNAL_IP = add(supported("external-ip")
            .shortFlag("-X")
            .type(repeatable(externalIp()), List.of())
            .help("Public IP reported in XOR-RELAYED-ADDRESS when behind NAT: 'public' or 'public/private';"
                    + " repeat the mapping form for several addresses."));

    public static final Option<Integer> MIN_PORT =
            add(supported("min-port").type(port(), 49152).help("Lower bound of the UDP relay port range."));

    public static final Option<Integer> MAX_PORT =
            add(supported("max-port").type(port(), 65535).help("Upper bound of the UDP relay port range."));

    public static final Option<Integer> RELAY_THREADS = add(supported("relay-threads")
            .shortFlag("-m")
            .type(integer(0, MAX_RELAY_THREADS), 1)
            .help("Number of relay threads; 0 means one per CPU core."));

    public static final Option<String> UDP_IO = add(supported("udp-io")
            .ternExtension()
            .type(choice("auto", "ffm", "netty"), "auto")
            .help("How relay threads read and write UDP: 'ffm' calls recvmmsg/sendmmsg through Java's FFM API"
                    + " (JDK 22+, Linux x86_64/aarch64), 'netty' uses Netty's datagram channels, 'auto' takes ffm"
                    + " where it can run, else netty."));

    public static final Option<Boolean> NO_UDP =
            add(supported("no-udp").type(flag(), false).help("Do not start UDP client listeners."));
    public static final Option<Boolean> NO_TCP =
            add(supported("no-tcp").type(flag(), false).help("Do not start TCP client listeners."));
    public static final Option<Boolean> NO_TLS =
            add(supported("no-tls").type(flag(), false).help("Do not start TLS client listeners."));
    public static final Option<Boolean> NO_DTLS =
            add(supported("no-dtls").type(flag(), false).help("Do not start DTLS client listeners."));

    // ---- TCP and TLS connections (Tern extensions; coturn has no such bounds) --------------------

    public static final Option<Integer> MAX_TCP_CONNECTIONS = add(supported("max-tcp-connections")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_MAX_CONNECTIONS)
            .help("TCP and TLS client connections open at once, over all listeners; past it new connections are"
                    + " closed at once."));

    public static final Option<Integer> MAX_TCP_CONNECTIONS_PER_IP = add(supported("max-tcp-connections-per-ip")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_MAX_CONNECTIONS_PER_IP)
            .help("TCP and TLS client connections open at once from one client IP address."));

    public static final Option<Integer> TCP_IDLE_TIMEOUT = add(supported("tcp-idle-timeout")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_IDLE_TIMEOUT_SECONDS)
            .paramLabel("<seconds>")
            .help("A TCP or TLS connection without an allocation that received nothing for this long is closed."));

    public static final Option<Integer> TCP_MESSAGE_TIMEOUT = add(supported("tcp-message-timeout")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_MESSAGE_TIMEOUT_SECONDS)
            .paramLabel("<seconds>")
            .help("A TCP or TLS connection whose message is still incomplete this long after its first byte is"
                    + " closed (slow-loris defence)."));

    public static final Option<Integer> TLS_HANDSHAKE_TIMEOUT = add(supported("tls-handshake-timeout")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_TLS_HANDSHAKE_TIMEOUT_SECONDS)
            .paramLabel("<seconds>")
            .help("A TLS handshake not done within this closes the connection."));

    public static final Option<Integer> TCP_WRITE_LOW_WATER_MARK = add(supported("tcp-write-low-water-mark")
            .ternExtension()
            .type(integer(0, ANY), StreamSettings.DEFAULT_WRITE_LOW_WATER_MARK_BYTES)
            .paramLabel("<bytes>")
            .help("Once a TCP or TLS client's send queue is back below this, data relayed to it flows again."));

    public static final Option<Integer> TCP_WRITE_HIGH_WATER_MARK = add(supported("tcp-write-high-water-mark")
            .ternExtension()
            .type(integer(1, ANY), StreamSettings.DEFAULT_WRITE_HIGH_WATER_MARK_BYTES)
            .paramLabel("<bytes>")
            .help("Past this many bytes queued for a TCP or TLS client, data relayed to it is dropped (and"
                    + " counted); at least tcp-write-low-water-mark."));

    // ---- authentication -------------------------------------------------------------------------

    public static final Option<String> REALM = add(supported("realm")
            .shortFlag("-r")
            .type(text("<realm>", MAX_REALM_CHARS), "tern")
            .defaultText("'tern' (coturn falls back to the host's domain name)")
            .help("Realm used for long-term credentials and the TURN REST API."));

    public static final Option<Boolean> LT_CRED_MECH = add(
            supported("lt-cred-mech")
                    .shortFlag("-a")
                    .type(flag(), false)
                    .help("Use the long-term credential mechanism with the static --user accounts."),
            CoturnPrinting.note(c -> "authentication: " + c.authMode()));

    public static final Option<Boolean> NO_AUTH = add(supported("no-auth")
            .shortFlag("-z")
            .type(flag(), false)
            .help("Allow anonymous access (open relay). Without any auth option Tern runs the TURN REST API with"
                    + " a freshly generated secret, printed once at start."));

    public static final Option<List<CoturnTypes.Given>> USER = add(
            supported("user")
                    .shortFlag("-u")
                    .type(repeatable(given("<name:password>")), List.of())
                    .help("Static long-term user, 'name:password' or 'name:0x<32 hex digits>' where the key is"
                            + " MD5(name:realm:password); repeat for several."),
            CoturnPrinting.printer((c, showSecrets) -> c.staticUsers().stream()
                    .map(u -> "# user: " + u.name() + " (key redacted)")
                    .toList()));

    public static final Option<Boolean> USE_AUTH_SECRET = add(supported("use-auth-secret")
            .type(flag(), false)
            .help("TURN REST API (time-limited credentials from a shared secret). Without --static-auth-secret"
                    + " Tern generates a random secret and prints it once."));

    public static final Option<List<String>> STATIC_AUTH_SECRET = add(
            supported("static-auth-secret")
                    .type(repeatable(raw("<secret>")), List.of())
                    .help("Shared secret for the TURN REST API; implies --use-auth-secret; repeat for several.")
                    .alsoSets(USE_AUTH_SECRET, secrets -> true),
            CoturnPrinting.printer(CoturnOptions::secretComments));

    public static final Option<Character> REST_API_SEPARATOR = add(supported("rest-api-separator")
            .shortFlag("-C")
            .type(character(), ':')
            .defaultText("':'")
            .help("Timestamp/username separator in TURN REST API user names."));

    public static final Option<Optional<RedisAddress>> REDIS_USERDB = add(supported("redis-userdb")
            .shortFlag("-N")
            .type(
                    optional(parsed(
                            "<\"ip=HOST port=PORT dbname=DB password=PASSWORD\" | redis://HOST:PORT[/DB]>",
                            RedisAddress::parseCoturn,
                            RedisAddress::toString)),
                    Optional.empty())
            .defaultText("none: users and secrets come from this config only")
            .help("coturn's Redis user database, read every 2 s without a restart: long-term users under"
                    + " turn/realm/<realm>/user/<user>/key (the hex key turnadmin writes) work beside the 'user'"
                    + " accounts, also with use-auth-secret; REST secrets in the set turn/realm/<realm>/secret"
                    + " work beside static-auth-secret when use-auth-secret is on; peer ranges under"
                    + " turn/allowed-peer-ip/* and turn/denied-peer-ip/* work beside allowed-peer-ip and"
                    + " denied-peer-ip. Malformed values are refused"
                    + " and logged. Takes coturn's connection string or a redis:// URL."));

    // ---- limits and lifetimes -------------------------------------------------------------------

    public static final Option<Integer> USER_QUOTA = add(supported("user-quota")
            .shortFlag("-q")
            .type(integer(0, ANY), 0)
            .help("Concurrent allocations per user; 0 means unlimited."));

    public static final Option<Integer> TOTAL_QUOTA = add(supported("total-quota")
            .shortFlag("-Q")
            .type(integer(0, ANY), 0)
            .help("Concurrent allocations in total; 0 means unlimited."));

    public static final Option<Integer> MAX_ALLOCATIONS = add(supported("max-allocations")
            .ternExtension()
            .type(integer(1, ANY), 100_000)
            .help("Hard upper bound on open allocations, whatever the quotas say."));

    public static final Option<Integer> UNAUTHENTICATED_RATE = add(supported("unauthenticated-rate")
            .ternExtension()
            .type(integer(1, ANY), TurnEngineConfig.DEFAULT_UNAUTHENTICATED_PER_SECOND)
            .help("401 and 438 answers per second per source IP, after a burst of twice as many; requests"
                    + " beyond it get no answer, so the relay cannot be used to reflect traffic. Raise it"
                    + " for many clients behind one address (a carrier NAT, a load test)."));

    public static final Option<Integer> MAX_ALLOCATE_LIFETIME = add(
            supported("max-allocate-lifetime")
                    .type(optionalInteger("<seconds>", 1), TurnEngineConfig.DEFAULT_MAX_LIFETIME_SECONDS)
                    .help("Maximum allocation lifetime in seconds."),
            CoturnPrinting.note(c -> "default allocation lifetime: " + c.defaultAllocationLifetimeSeconds() + " s"));

    public static final Option<Integer> CHANNEL_LIFETIME = add(supported("channel-lifetime")
            .type(optionalInteger("<seconds>", 1), TurnEngineConfig.DEFAULT_CHANNEL_LIFETIME_SECONDS)
            .help("Channel binding lifetime in seconds."));

    public static final Option<Integer> PERMISSION_LIFETIME = add(supported("permission-lifetime")
            .type(optionalInteger("<seconds>", 1), TurnEngineConfig.DEFAULT_PERMISSION_LIFETIME_SECONDS)
            .help("Permission lifetime in seconds."));

    public static final Option<Integer> STALE_NONCE = add(supported("stale-nonce")
            .type(optionalInteger("<seconds>", 0), 600)
            .help("Nonce lifetime in seconds; 0 means unlimited; without a value 600."));

    public static final Option<Optional<String>> STATELESS_NONCE_SECRET = add(
            supported("stateless-nonce-secret")
                    .type(optional(raw("<secret>")), Optional.empty())
                    .defaultText("none: a random key per process")
                    .help("Secret the nonce key is derived from, as coturn does (SHA-256 of"
                            + " 'coturn-stateless-nonce-v1' and the secret): every node given the same secret accepts"
                            + " the nonces of the others, so a client retrying on another node costs no 438. Clocks"
                            + " must agree within stale-nonce. Use a long random string, in the config file rather"
                            + " than on the command line."),
            CoturnPrinting.printer((c, showSecrets) -> c.statelessNonceSecret().isPresent()
                    ? List.of("# stateless-nonce-secret: given (redacted)")
                    : List.of()));

    // ---- redirection and drain ------------------------------------------------------------------

    public static final Option<List<InetSocketAddress>> ALTERNATE_SERVER = add(supported("alternate-server")
            .type(repeatable(serverAddress(3478)), List.of())
            .help("Alternate server for UDP and TCP clients, 'ip[:port]' ('[ipv6]:port'; port 3478 when"
                    + " omitted): every Allocate is answered 300 Try Alternate naming one, round robin over the"
                    + " list, as in coturn (a server given twice gets twice the share); repeat for several."));

    public static final Option<List<InetSocketAddress>> UDP_ALTERNATE_SERVER = add(supported("udp-alternate-server")
            .type(repeatable(serverAddress(3478)), List.of())
            .help("Alternate server for UDP clients only, in place of alternate-server's list for them; same"
                    + " form; repeat for several."));

    public static final Option<List<InetSocketAddress>> TCP_ALTERNATE_SERVER = add(supported("tcp-alternate-server")
            .type(repeatable(serverAddress(3478)), List.of())
            .help("Alternate server for TCP clients only, in place of alternate-server's list for them; same"
                    + " form; repeat for several."));

    public static final Option<List<InetSocketAddress>> TLS_ALTERNATE_SERVER = add(supported("tls-alternate-server")
            .type(repeatable(serverAddress(5349)), List.of())
            .help("Alternate server for TLS clients, 'ip[:port]' (port 5349 when omitted); same behaviour as"
                    + " alternate-server; repeat for several."));

    public static final Option<Boolean> DRAIN_ON_TERM = add(supported("drain-on-term")
            .ternExtension()
            .type(flag(), false)
            .help("SIGTERM drains instead of stopping at once, as SIGUSR1 does: /ready turns 503, new Allocates"
                    + " are redirected (300) or refused (508), and the process exits once allocations fall to"
                    + " drain-min-allocations. A second SIGTERM or SIGINT stops at once."));

    public static final Option<Integer> DRAIN_MIN_ALLOCATIONS = add(supported("drain-min-allocations")
            .ternExtension()
            .type(integer(0, ANY), 0)
            .help("A draining process exits once its allocations are at most this many; 0 waits for the last"
                    + " one to end."));

    // ---- peers ----------------------------------------------------------------------------------

    public static final Option<List<IpRange>> ALLOWED_PEER_IP = add(supported("allowed-peer-ip")
            .type(repeatable(ipRange()), List.of())
            .help("Peer address or range explicitly allowed ('ip', 'ip1-ip2', or CIDR 'ip/n' as a Tern"
                    + " extension); wins over --denied-peer-ip; repeat for several."));

    public static final Option<List<IpRange>> DENIED_PEER_IP = add(supported("denied-peer-ip")
            .type(repeatable(ipRange()), List.of())
            .help("Peer address or range refused (same syntax as --allowed-peer-ip); repeat for several."));

    public static final Option<Boolean> ALLOW_LOOPBACK_PEERS = add(supported("allow-loopback-peers")
            .type(flag(), false)
            .help("Allow peers on loopback addresses (127.x.x.x, ::1). For testing only."));

    public static final Option<Boolean> NO_MULTICAST_PEERS = add(supported("no-multicast-peers")
            .type(flag(), false)
            .help("Refuse peers on multicast addresses (224.0.0.0/4, ff00::/8)."));

    // ---- STUN behaviour -------------------------------------------------------------------------

    public static final Option<Boolean> FINGERPRINT =
            add(supported("fingerprint").shortFlag("-f").type(flag(), false).help("Add FINGERPRINT to TURN messages."));

    public static final Option<Boolean> SOFTWARE_ATTRIBUTE = add(
            supported("software-attribute").type(flag(), true).help("Send the SOFTWARE attribute ('Tern <version>')."),
            CoturnPrinting.note(
                    c -> c.softwareAttribute().map(s -> "SOFTWARE: " + s).orElse(null)));

    public static final Option<Boolean> NO_SOFTWARE_ATTRIBUTE = add(supported("no-software-attribute")
            .type(flag(), false)
            .help("Do not send the SOFTWARE attribute (hides the version).")
            .setsInstead(SOFTWARE_ATTRIBUTE, on -> !on));

    public static final Option<Boolean> STRICT_CHANNEL_NUMBERS = add(supported("strict-channel-numbers")
            .ternExtension()
            .type(flag(), false)
            .help("ChannelBind accepts only RFC 8656's channel numbers, 0x4000-0x4FFF. Without it RFC 5766's"
                    + " 0x4000-0x7FFF are accepted too, as coturn does (its turnutils_uclient uses them)."));

    // ---- the fleet (Tern extensions; coturn's quotas are per process) -----------------------------

    public static final Option<Optional<RedisAddress>> CLUSTER_REDIS = add(supported("cluster-redis")
            .ternExtension()
            .type(
                    optional(parsed("<redis://HOST:PORT[/DB]>", RedisAddress::parse, RedisAddress::toString)),
                    Optional.empty())
            .defaultText("none: quotas count this node's allocations only")
            .help("Redis shared by a fleet of relays, redis://[[USER]:PASSWORD@]HOST:PORT[/DB] or rediss:// for"
                    + " TLS: user-quota and total-quota then count every node's allocations, each holding a lease"
                    + " there, and the node registers its addresses and load. Redis is never asked per packet."));

    public static final Option<Optional<String>> CLUSTER_NODE_ID = add(supported("cluster-node-id")
            .ternExtension()
            .type(optional(parsed("<id>", CoturnOptions::nodeId, id -> id)), Optional.empty())
            .defaultText("the host name")
            .help("This relay's name in the fleet, unique among its nodes: letters, digits, '.', '_', ':' and"
                    + " '-', at most 128."));

    public static final Option<Integer> CLUSTER_LEASE_TTL = add(supported("cluster-lease-ttl")
            .ternExtension()
            .type(integer("<seconds>", 1, 3600), 30)
            .help("How long a crashed node's allocations keep their slots in the fleet's quotas, and its"
                    + " registration stays live; refreshed every third of it."));

    public static final Option<String> CLUSTER_REDIS_FAIL = add(supported("cluster-redis-fail")
            .ternExtension()
            .type(choice("open", "closed"), "open")
            .help("While the cluster Redis is unreachable: 'open' decides allocations by this node's own quotas"
                    + " (logged once per outage, counted), 'closed' refuses them with 508 (Insufficient"
                    + " Capacity)."));

    // ---- TLS ------------------------------------------------------------------------------------

    public static final Option<Optional<Path>> CERT = add(supported("cert")
            .type(optional(fileRelativeToConfig()), Optional.empty())
            .defaultText("none (TLS/DTLS listeners stay off)")
            .help("Certificate file, PEM; relative paths are resolved against the config file's directory."));

    public static final Option<Optional<Path>> PKEY = add(supported("pkey")
            .type(optional(fileRelativeToConfig()), Optional.empty())
            .help("Private key file, PEM; same path rules as --cert."));

    public static final Option<Optional<String>> CIPHER_LIST = add(supported("cipher-list")
            .type(optional(raw("<ciphers>")), Optional.empty())
            .defaultText("the TLS library's default")
            .help("Allowed cipher list for TLS/DTLS."));

    public static final Option<Boolean> NO_TLSV1 =
            add(supported("no-tlsv1").type(flag(), false).help("Refuse TLS 1.0."));
    public static final Option<Boolean> NO_TLSV1_1 =
            add(supported("no-tlsv1_1").type(flag(), false).help("Refuse TLS 1.1."));
    public static final Option<Boolean> NO_TLSV1_2 =
            add(supported("no-tlsv1_2").type(flag(), false).help("Refuse TLS 1.2."));

    // ---- operations -----------------------------------------------------------------------------

    public static final Option<Optional<String>> LOG_FILE = add(supported("log-file")
            .shortFlag("-l")
            .type(optional(raw("<file>")), Optional.empty())
            .defaultText("standard output")
            .help("Log file; 'stdout' or '-' for standard output, 'syslog' for the system log."));

    public static final Option<Boolean> VERBOSE =
            add(supported("verbose").shortFlag("-v").type(flag(), false).help("Moderate verbose logging."));

    public static final Option<Boolean> VERBOSE_EXTRA = add(supported("Verbose")
            .shortFlag("-V")
            .type(stickyFlag(), false)
            .help("Extra verbose logging (debugging only); once on, a later Verbose=off does not turn it off,"
                    + " as in coturn."));

    public static final Option<Optional<Path>> PIDFILE = add(supported("pidfile")
            .type(optional(path()), Optional.empty())
            .defaultText("none (coturn: /var/run/turnserver.pid)")
            .help("File to write the process id to."));

    public static final Option<Boolean> PROMETHEUS =
            add(supported("prometheus").type(flag(), false).help("Expose Prometheus metrics on /metrics."));

    public static final Option<Integer> PROMETHEUS_PORT =
            add(supported("prometheus-port").type(port(), 9641).help("Prometheus metrics port."));

    // ---- accepted silently, and known coturn options Tern ignores with one warning each ----------

    static {
        ROWS.add(alwaysTrue("no-cli", "Tern has no telnet CLI; accepted and ignored."));
        ROWS.add(alwaysTrue("stateless-nonce", "Tern's nonces are always stateless; accepted and ignored."));
        for (final String flag : List.of(
                "udp-self-balance",
                "no-auth-pings",
                "no-dynamic-ip-list",
                "no-dynamic-realms",
                "oauth",
                "check-origin-consistency",
                "no-udp-relay",
                "no-tcp-relay",
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
                "log-binding",
                "no-rfc5780",
                "no-stun-backward-compatibility",
                "response-origin-only-with-rfc5780",
                "respond-http-unsupported",
                "prometheus-username-labels",
                "version")) {
            ROWS.add(unsupported(flag, Arity.FLAG));
        }
        ROWS.add(unsupported("daemon", Arity.FLAG, "-o"));
        ROWS.add(unsupported("stun-only", Arity.FLAG, "-S"));
        ROWS.add(unsupported("keep-address-family", Arity.FLAG, "-K"));
        for (final String valued : List.of(
                "alt-listening-port",
                "alt-tls-listening-port",
                "tcp-proxy-port",
                "prometheus-address",
                "server-name",
                "pkey-pwd",
                "new-log-timestamp-format",
                "syslog-facility",
                "aux-server",
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
                "acme-redirect")) {
            ROWS.add(unsupported(valued, Arity.REQUIRED_VALUE));
        }
        ROWS.add(unsupported("listening-device", Arity.REQUIRED_VALUE, "-d"));
        ROWS.add(unsupported("relay-device", Arity.REQUIRED_VALUE, "-i"));
        ROWS.add(unsupported("userdb", Arity.REQUIRED_VALUE, "db", "-b"));
        ROWS.add(unsupported("psql-userdb", Arity.REQUIRED_VALUE, "sql-userdb", "-e"));
        ROWS.add(unsupported("mysql-userdb", Arity.REQUIRED_VALUE, "-M"));
        ROWS.add(unsupported("mongo-userdb", Arity.REQUIRED_VALUE, "-J"));
        ROWS.add(unsupported("redis-statsdb", Arity.REQUIRED_VALUE, "-O"));
        ROWS.add(unsupported("max-bps", Arity.REQUIRED_VALUE, "-s"));
        ROWS.add(unsupported("bps-capacity", Arity.REQUIRED_VALUE, "-B"));
        ROWS.add(unsupported("allocation-default-address-family", Arity.REQUIRED_VALUE, "-A"));
    }

    private static final List<Option<?>> ALL = Collections.unmodifiableList(new ArrayList<>(ROWS));
    private static final Map<String, Option<?>> BY_NAME = byName(ALL);

    private CoturnOptions() {}

    /** The row for {@code name}, a long name or alias (case-sensitive, no dashes), or {@code null} if unknown. */
    public static Option<?> find(final String name) {
        return BY_NAME.get(name);
    }

    /** Every row, in table order. */
    public static List<Option<?>> all() {
        return ALL;
    }

    public static List<Option<?>> withStatus(final Status status) {
        return ALL.stream().filter(option -> option.status() == status).toList();
    }

    /** How {@code --print-config} writes {@code row}: its value, with the row's note or instead of it. */
    static CoturnPrinting printing(final Option<?> row) {
        return PRINTING.getOrDefault(row, CoturnPrinting.VALUE);
    }

    /** A row for an option Tern implements; finish it with {@code type}, {@code help}, .... */
    private static Option.Builder<Void> supported(final String name) {
        return Option.builder(name, Status.SUPPORTED);
    }

    /** A coturn option Tern always behaves as asked by: accepted and ignored silently. */
    private static Option<Void> alwaysTrue(final String name, final String help) {
        return Option.builder(name, Status.ALWAYS_TRUE)
                .type(CoturnTypes.ignored(Arity.FLAG))
                .help(help)
                .build();
    }

    /** A known coturn option Tern does not implement: warned about once and ignored. */
    private static Option<Void> unsupported(final String name, final Arity arity, final String... aliasesAndShortFlag) {
        final Option.Builder<Void> b = Option.builder(name, Status.UNSUPPORTED)
                .type(CoturnTypes.ignored(arity))
                .help("coturn option not supported by Tern; ignored with a warning.");
        for (final String other : aliasesAndShortFlag) {
            if (other.startsWith("-")) {
                b.shortFlag(other);
            } else {
                b.alias(other);
            }
        }
        return b.build();
    }

    private static <V> Option<V> add(final Option.Builder<V> row) {
        final Option<V> option = row.build();
        if (option.status() == Status.SUPPORTED && option.defaultValue() == null) {
            throw new IllegalStateException("supported option without a default: " + option.name());
        }
        ROWS.add(option);
        return option;
    }

    private static <V> Option<V> add(final Option.Builder<V> row, final CoturnPrinting printing) {
        final Option<V> option = add(row);
        PRINTING.put(option, printing);
        return option;
    }

    private static Map<String, Option<?>> byName(final List<Option<?>> rows) {
        final Map<String, Option<?>> byName = new HashMap<>();
        for (final Option<?> row : rows) {
            final List<String> names = new ArrayList<>(row.aliases());
            names.add(row.name());
            for (final String name : names) {
                if (byName.putIfAbsent(name, row) != null) {
                    throw new IllegalStateException("duplicate option " + name);
                }
            }
        }
        return Map.copyOf(byName);
    }

    private static String nodeId(final String text) {
        if (!text.matches("[A-Za-z0-9._:-]{1,128}")) {
            throw new IllegalArgumentException(
                    "must be 1 to 128 letters, digits, '.', '_', ':' or '-' (it names the node's keys in Redis)");
        }
        return text;
    }

    private static List<String> secretComments(final TurnServerConfig config, final boolean showSecrets) {
        final List<String> lines = new ArrayList<>();
        if (!config.staticAuthSecrets().isEmpty()) {
            lines.add("# static-auth-secret: " + config.staticAuthSecrets().size() + " given (redacted)");
        }
        config.generatedSecret()
                .ifPresent(secret -> lines.add(
                        "# static-auth-secret: generated" + (showSecrets ? ", shown once: " + secret : " (redacted)")));
        return lines;
    }
}
