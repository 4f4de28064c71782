package io.tern.server.config;

import static io.tern.server.config.CoturnOptions.ALLOW_LOOPBACK_PEERS;
import static io.tern.server.config.CoturnOptions.CERT;
import static io.tern.server.config.CoturnOptions.EXTERNAL_IP;
import static io.tern.server.config.CoturnOptions.LISTENING_PORT;
import static io.tern.server.config.CoturnOptions.LT_CRED_MECH;
import static io.tern.server.config.CoturnOptions.MAX_PORT;
import static io.tern.server.config.CoturnOptions.MIN_PORT;
import static io.tern.server.config.CoturnOptions.NO_AUTH;
import static io.tern.server.config.CoturnOptions.NO_DTLS;
import static io.tern.server.config.CoturnOptions.NO_TCP;
import static io.tern.server.config.CoturnOptions.NO_TLS;
import static io.tern.server.config.CoturnOptions.PKEY;
import static io.tern.server.config.CoturnOptions.REALM;
import static io.tern.server.config.CoturnOptions.REDIS_USERDB;
import static io.tern.server.config.CoturnOptions.STATIC_AUTH_SECRET;
import static io.tern.server.config.CoturnOptions.TCP_WRITE_HIGH_WATER_MARK;
import static io.tern.server.config.CoturnOptions.TCP_WRITE_LOW_WATER_MARK;
import static io.tern.server.config.CoturnOptions.TLS_LISTENING_PORT;
import static io.tern.server.config.CoturnOptions.USER;
import static io.tern.server.config.CoturnOptions.USE_AUTH_SECRET;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns option occurrences from a config file and from the command line into a validated
 * {@link TurnServerConfig}: each occurrence is applied by its row of {@link CoturnOptions}, in
 * order, and then the rules that relate several options are checked here.
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
    public TurnServerConfig assemble(final List<Occurrence> fileValues, final List<Occurrence> commandLineValues) {
        final Set<Option<?>> repeatedOnCommandLine = new HashSet<>();
        for (final Occurrence value : commandLineValues) {
            if (value.option().repeatable()) {
                repeatedOnCommandLine.add(value.option());
            }
        }
        final List<Occurrence> effective = new ArrayList<>(fileValues.size() + commandLineValues.size());
        for (final Occurrence value : fileValues) {
            if (!repeatedOnCommandLine.contains(value.option())) {
                effective.add(value);
            }
        }
        effective.addAll(commandLineValues);

        final Assembly a = new Assembly();
        final Set<String> warnedUnsupported = new HashSet<>();
        for (final Occurrence value : effective) {
            final Status status = value.option().status();
            if (status == Status.UNSUPPORTED) {
                if (warnedUnsupported.add(value.name())) {
                    warnings.warn("coturn option '" + value.name() + "' is not supported by Tern and is ignored");
                }
            } else if (status == Status.SUPPORTED) {
                a.values.apply(value);
                a.sources.put(value.option(), value);
            }
        }
        return finish(a);
    }

    /** The values while they are applied, and the last occurrence of each option for messages. */
    private static final class Assembly {
        final OptionValues.Builder values = OptionValues.builder();
        final Map<Option<?>, Occurrence> sources = new HashMap<>();

        <V> V get(final Option<V> option) {
            return values.get(option);
        }

        String where(final Option<?> option) {
            final Occurrence v = sources.get(option);
            return v == null ? ConfigSource.defaultValue().where() : v.source().where();
        }
    }

    private TurnServerConfig finish(final Assembly a) {
        if (a.get(MIN_PORT) > a.get(MAX_PORT)) {
            throw new ConfigException("min-port " + a.get(MIN_PORT) + " > max-port " + a.get(MAX_PORT) + " (min-port "
                    + a.where(MIN_PORT) + ", max-port " + a.where(MAX_PORT) + ")");
        }
        if (a.get(TCP_WRITE_LOW_WATER_MARK) > a.get(TCP_WRITE_HIGH_WATER_MARK)) {
            throw new ConfigException("tcp-write-low-water-mark " + a.get(TCP_WRITE_LOW_WATER_MARK)
                    + " > tcp-write-high-water-mark " + a.get(TCP_WRITE_HIGH_WATER_MARK)
                    + " (tcp-write-low-water-mark " + a.where(TCP_WRITE_LOW_WATER_MARK)
                    + ", tcp-write-high-water-mark " + a.where(TCP_WRITE_HIGH_WATER_MARK) + ")");
        }
        final long bareExternalIps =
                a.get(EXTERNAL_IP).stream().filter(m -> m.privateIp().isEmpty()).count();
        if (bareExternalIps > 1) {
            final Occurrence last = a.sources.get(EXTERNAL_IP);
            throw ConfigException.invalidValue(
                    last.name(),
                    last.value(),
                    "only one external-ip without '/private' is allowed; map several as public/private",
                    last.source());
        }
        checkTls(a);

        final List<StaticUser> users = staticUsers(a);
        final AuthMode authMode = authMode(a, users);
        Optional<String> generatedSecret = Optional.empty();
        if (authMode == AuthMode.REST_SECRET
                && a.get(STATIC_AUTH_SECRET).isEmpty()
                && a.get(REDIS_USERDB).isEmpty()) {
            final byte[] secret = new byte[SECRET_BYTES];
            random.nextBytes(secret);
            generatedSecret = Optional.of(HexFormat.of().formatHex(secret));
        }
        if (a.get(ALLOW_LOOPBACK_PEERS)) {
            warnings.warn("allow-loopback-peers " + a.where(ALLOW_LOOPBACK_PEERS)
                    + " opens a possible security vulnerability; do not use in production");
        }
        // The users are kept as keys only: their passwords are not needed once hashed.
        return new TurnServerConfig(
                a.values.build().withDefault(USER),
                authMode,
                authMode == AuthMode.LONG_TERM ? users : List.of(),
                generatedSecret);
    }

    private static void checkTls(final Assembly a) {
        final Optional<Path> cert = a.get(CERT);
        final Optional<Path> pkey = a.get(PKEY);
        if (cert.isPresent() != pkey.isPresent()) {
            final Option<?> given = cert.isPresent() ? CERT : PKEY;
            final Option<?> missing = cert.isPresent() ? PKEY : CERT;
            final Occurrence v = a.sources.get(given);
            throw new ConfigException("Option '" + given + "' ('" + v.value() + "' "
                    + v.source().where() + ") needs option '" + missing + "' too");
        }
        if (cert.isEmpty() && !a.get(NO_TLS) && a.sources.containsKey(TLS_LISTENING_PORT)) {
            final Occurrence v = a.sources.get(TLS_LISTENING_PORT);
            throw new ConfigException("Option 'tls-listening-port' ('" + v.value() + "' "
                    + v.source().where() + ") needs options 'cert' and 'pkey' (or set 'no-tls')");
        }
        if (cert.isPresent() && (!a.get(NO_TLS) || !a.get(NO_DTLS))) {
            requireReadable(a, CERT);
            requireReadable(a, PKEY);
        }
        if (cert.isPresent()
                && !a.get(NO_TLS)
                && !a.get(NO_TCP)
                && a.get(LISTENING_PORT).equals(a.get(TLS_LISTENING_PORT))) {
            throw new ConfigException("listening-port " + a.get(LISTENING_PORT) + " " + a.where(LISTENING_PORT)
                    + " and tls-listening-port " + a.get(TLS_LISTENING_PORT) + " " + a.where(TLS_LISTENING_PORT)
                    + " must differ");
        }
    }

    private AuthMode authMode(final Assembly a, final List<StaticUser> users) {
        final boolean noAuth = a.get(NO_AUTH);
        final boolean ltCredMech = a.get(LT_CRED_MECH);
        final boolean useAuthSecret = a.get(USE_AUTH_SECRET);
        if (noAuth && (ltCredMech || useAuthSecret)) {
            final Option<?> other = ltCredMech
                    ? LT_CRED_MECH
                    : a.sources.containsKey(USE_AUTH_SECRET) ? USE_AUTH_SECRET : STATIC_AUTH_SECRET;
            throw new ConfigException("Options 'no-auth' " + a.where(NO_AUTH) + " and '" + other + "' " + a.where(other)
                    + " cannot be used together");
        }
        if (useAuthSecret) {
            if (ltCredMech) {
                warnings.warn("lt-cred-mech and use-auth-secret are both set: the shared secret (TURN REST API) "
                        + "is used, user name/password accounts are not");
            }
            if (!users.isEmpty()) {
                warnings.warn(users.size() + " 'user' account(s) ignored: they cannot be used with the TURN REST "
                        + "API (use-auth-secret)");
            }
            return AuthMode.REST_SECRET;
        }
        if (noAuth) {
            if (!users.isEmpty()) {
                warnings.warn(users.size() + " 'user' account(s) ignored because of 'no-auth'");
            }
            warnings.warn("no-auth: anonymous access, this server is an open relay");
            return AuthMode.NONE;
        }
        if (ltCredMech || !users.isEmpty()) {
            if (users.isEmpty() && a.get(REDIS_USERDB).isEmpty()) {
                throw new ConfigException("Option 'lt-cred-mech' " + a.where(LT_CRED_MECH)
                        + " needs at least one 'user' or a 'redis-userdb'");
            }
            if (!ltCredMech) {
                warnings.warn("'user' accounts given without 'lt-cred-mech': turning lt-cred-mech on");
            }
            return AuthMode.LONG_TERM;
        }
        return AuthMode.REST_SECRET;
    }

    /** coturn's add_static_user_account, applied after all options so the final realm is used. */
    private static List<StaticUser> staticUsers(final Assembly a) {
        final Map<String, StaticUser> byName = new LinkedHashMap<>();
        for (final CoturnTypes.Given v : a.get(USER)) {
            final String text = v.text();
            final int colon = text.indexOf(':');
            int secretStart = colon + 1;
            while (colon > 0
                    && secretStart < text.length()
                    && (text.charAt(secretStart) == ' ' || text.charAt(secretStart) == '\t')) {
                secretStart++;
            }
            if (colon <= 0 || secretStart >= text.length()) {
                throw ConfigException.invalidValue(
                        USER.name(), text, "must be name:password or name:0x<32 hex digits>", v.source());
            }
            final String name = text.substring(0, colon);
            final String secret = text.substring(secretStart);
            final String keyHex;
            if (secret.startsWith("0x")) {
                keyHex = secret.substring(2);
                if (keyHex.length() != StaticUser.KEY_BYTES * 2 || !isHex(keyHex)) {
                    throw ConfigException.invalidValue(
                            USER.name(), text, "the key after '0x' must be exactly 32 hex digits", v.source());
                }
            } else {
                keyHex = HexFormat.of().formatHex(md5(name + ":" + a.get(REALM) + ":" + secret));
            }
            byName.remove(name);
            byName.put(name, new StaticUser(name, keyHex));
        }
        return List.copyOf(byName.values());
    }

    private static void requireReadable(final Assembly a, final Option<Optional<Path>> option) {
        final Path path = a.get(option).orElseThrow();
        if (!Files.isReadable(path) || Files.isDirectory(path)) {
            final Occurrence v = a.sources.get(option);
            throw ConfigException.invalidValue(v.name(), v.value(), "file not readable: " + path, v.source());
        }
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
