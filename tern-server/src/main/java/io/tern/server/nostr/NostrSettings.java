package io.tern.server.nostr;

import static io.tern.server.nostr.NostrOptions.*;

import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.store.postgres.PostgresStoreConfig;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.server.config.AddressPlan;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Option;
import io.tern.server.option.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The effective settings of {@code tern nostr}: the values of {@link NostrOptions}' rows, and the
 * relay and store configurations made from them.
 */
public final class NostrSettings {
    private static final Pattern RELAY_MESSAGE =
            Pattern.compile("([a-z0-9-]+): invalid value '(.*)' \\((.*)\\)", Pattern.DOTALL);

    private final Settings values;
    private final NostrConfig relay;

    /**
     * The settings of {@code values}; a value the relay refuses stops start-up, naming the option,
     * the value and where it was written.
     */
    NostrSettings(Settings values) {
        this.values = values;
        this.relay = relayConfig(values);
    }

    private static NostrConfig relayConfig(Settings values) {
        NostrConfig.Builder relay = NostrConfig.builder();
        setIfGiven(values, relay, PUBLIC_URL, NostrConfig.Builder::publicUrl);
        setIfGiven(values, relay, RELAY_PUBKEY, NostrConfig.Builder::operatorPubkey);
        setIfGiven(values, relay, CONTACT, NostrConfig.Builder::contact);
        relay.name(values.get(NAME))
                .description(values.get(DESCRIPTION))
                .authMode(values.get(AUTH))
                .maxMessageBytes(values.get(MAX_MESSAGE_BYTES))
                .maxSubscriptions(values.get(MAX_SUBSCRIPTIONS))
                .maxFilters(values.get(MAX_FILTERS))
                .maxLimit(values.get(MAX_LIMIT))
                .defaultLimit(values.get(DEFAULT_LIMIT))
                .maxSubscriptionIdLength(values.get(MAX_SUBID_LENGTH))
                .maxEventTags(values.get(MAX_EVENT_TAGS))
                .maxFutureSeconds(values.get(MAX_FUTURE_SECONDS))
                .maxPastSeconds(values.get(MAX_PAST_SECONDS))
                .maxEphemeralAgeSeconds(values.get(MAX_EPHEMERAL_AGE_SECONDS))
                .authWindowSeconds(values.get(AUTH_WINDOW_SECONDS))
                .eventRatePerIp(values.get(EVENTS_PER_SECOND_PER_IP), values.get(EVENT_BURST_PER_IP))
                .eventRatePerPubkey(values.get(EVENTS_PER_SECOND_PER_PUBKEY), values.get(EVENT_BURST_PER_PUBKEY))
                .reqRatePerIp(values.get(REQS_PER_SECOND_PER_IP), values.get(REQ_BURST_PER_IP))
                .rateLimitKeys(values.get(RATE_LIMIT_KEYS))
                .maxConnectionsPerIp(values.get(MAX_CONNECTIONS_PER_IP))
                .maxOutboundBytes(values.get(MAX_OUTBOUND_BYTES))
                .queryTimeoutMillis(values.get(QUERY_TIMEOUT_MS))
                .purgeIntervalSeconds(values.get(PURGE_INTERVAL_SECONDS))
                .nip09(values.get(NIP09))
                .nip40(values.get(NIP40))
                .nip45(values.get(NIP45));
        try {
            return relay.build();
        } catch (IllegalArgumentException refused) {
            // The relay says "option: invalid value 'v' (expected ...)"; add where it was written.
            Matcher m = RELAY_MESSAGE.matcher(refused.getMessage());
            if (!m.matches()) {
                throw new ConfigException(refused.getMessage());
            }
            Option<?> row = NostrOptions.find(m.group(1));
            ConfigSource source = row == null ? ConfigSource.defaultValue() : values.source(row);
            throw ConfigException.invalidValue(m.group(1), m.group(2), m.group(3), source);
        }
    }

    private static void setIfGiven(
            Settings values,
            NostrConfig.Builder relay,
            Option<String> row,
            BiConsumer<NostrConfig.Builder, String> set) {
        if (values.get(row) != null) {
            set.accept(relay, values.get(row));
        }
    }

    /** The effective settings in the {@code -c} file's syntax; reading them back gives the same settings. */
    public String print() {
        return values.print("# tern nostr: the effective configuration (read back with -c FILE)");
    }

    /** The relay's configuration. */
    public NostrConfig relayConfig() {
        return relay;
    }

    /** Whether {@code --db} names a PostgreSQL database (shared by a fleet) rather than a SQLite file. */
    public boolean postgres() {
        return PostgresStoreConfig.isUrl(values.get(DB));
    }

    /** Checks the store's options: a bad URL or an unreadable password file stops start-up, naming the option. */
    void checkStore() {
        if (postgres()) {
            postgresConfig();
        } else {
            if (values.get(DB_PASSWORD_FILE) != null) {
                throw ConfigException.invalidValue(
                        DB_PASSWORD_FILE.name(),
                        values.get(DB_PASSWORD_FILE).toString(),
                        "only for a postgresql:// --db",
                        values.source(DB_PASSWORD_FILE));
            }
            storeConfig();
        }
    }

    /** The SQLite store's configuration (when {@link #postgres()} is false). */
    public SqliteStoreConfig storeConfig() {
        Path file;
        try {
            file = Path.of(values.get(DB)).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw ConfigException.invalidValue(
                    DB.name(), values.get(DB), "is not a valid path: " + e.getReason(), values.source(DB));
        }
        SqliteStoreConfig defaults = SqliteStoreConfig.defaults(file);
        return new SqliteStoreConfig(
                defaults.path(),
                values.get(DB_SYNC_FULL),
                defaults.readConnections(),
                defaults.maxWriteBatch(),
                defaults.sliceNs(),
                defaults.rowsPerStep());
    }

    /** The PostgreSQL store's configuration (when {@link #postgres()}), the password read from its file. */
    public PostgresStoreConfig postgresConfig() {
        String password = null;
        Path file = values.get(DB_PASSWORD_FILE);
        if (file != null) {
            try {
                password = Files.readString(file).lines().findFirst().orElse("");
            } catch (IOException | UncheckedIOException e) {
                throw ConfigException.invalidValue(
                        DB_PASSWORD_FILE.name(),
                        file.toString(),
                        "cannot read it: " + e,
                        values.source(DB_PASSWORD_FILE));
            }
            if (password.isEmpty()) {
                throw ConfigException.invalidValue(
                        DB_PASSWORD_FILE.name(),
                        file.toString(),
                        "its first line, the password, is empty",
                        values.source(DB_PASSWORD_FILE));
            }
        }
        try {
            return PostgresStoreConfig.fromUrl(values.get(DB), password);
        } catch (IllegalArgumentException e) {
            throw ConfigException.invalidValue(
                    DB.name(), withoutPassword(values.get(DB)), e.getMessage(), values.source(DB));
        }
    }

    /** A URL as messages show it: {@code USER:PASSWORD@} becomes {@code USER:***@}. */
    static String withoutPassword(String url) {
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        int colon = scheme < 0 ? -1 : url.indexOf(':', scheme + 3);
        return scheme < 0 || at < 0 || colon < 0 || colon > at
                ? url
                : url.substring(0, colon + 1) + "***" + url.substring(at);
    }

    /** How the start-up line names the database. */
    String databaseName() {
        return postgres() ? postgresConfig().displayUrl() : storeConfig().path().toString();
    }

    /** {@code --listen}, by default '::' where the host has IPv6 (a dual-stack socket) and else 0.0.0.0. */
    public InetSocketAddress listenAddress() {
        if (values.get(LISTEN) != null) {
            return new InetSocketAddress(values.get(LISTEN), values.get(PORT));
        }
        boolean ipv6 = AddressPlan.interfaceAddresses().stream().anyMatch(Inet6Address.class::isInstance);
        return new InetSocketAddress(ipv6 ? "::" : "0.0.0.0", values.get(PORT));
    }

    public int threads() {
        return values.get(THREADS);
    }

    public String db() {
        return values.get(DB);
    }

    public boolean prometheus() {
        return values.get(PROMETHEUS);
    }

    public InetSocketAddress prometheusAddress() {
        return new InetSocketAddress(values.get(PROMETHEUS_LISTEN), values.get(PROMETHEUS_PORT));
    }
}
