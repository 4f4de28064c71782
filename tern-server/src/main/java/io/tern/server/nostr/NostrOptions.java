package io.tern.server.nostr;

import static io.tern.server.option.OptionTypes.anyText;
import static io.tern.server.option.OptionTypes.count;
import static io.tern.server.option.OptionTypes.decimal;
import static io.tern.server.option.OptionTypes.flag;
import static io.tern.server.option.OptionTypes.integer;
import static io.tern.server.option.OptionTypes.parsed;
import static io.tern.server.option.OptionTypes.path;
import static io.tern.server.option.OptionTypes.text;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.NostrConfig;
import io.tern.server.option.Option;
import io.tern.server.option.OptionType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@code tern nostr}, one row each: the command line ({@code --name value}), the
 * {@code -c} file ({@code name=value}), {@code --help} and the README's table are all made from
 * these rows. The relay's limits default to {@link NostrConfig#defaults()}, and the relay's own
 * checks ({@link NostrConfig.Builder#build()}) bound them; {@link NostrSettings} hands the values
 * to the relay and the store.
 */
public final class NostrOptions {
    private static final NostrConfig D = NostrConfig.defaults();
    private static final List<Option<?>> ROWS = new ArrayList<>();

    /** Beside TURN's 9641 and the origin's 9642, so the three products can run on one host. */
    static final int DEFAULT_PROMETHEUS_PORT = 9643;

    public static final Option<Integer> PORT =
            row("port", integer("<port>", 0, 65535), 7777, null, "WebSocket (and NIP-11) port; 0 picks a free one.");
    public static final Option<String> LISTEN = row(
            "listen",
            text("<address>"),
            null,
            "'::' (every IPv4 and IPv6 address; 0.0.0.0 on a host without IPv6)",
            "Address to listen on.");
    public static final Option<String> DB = row(
            "db",
            text("<file|postgresql://USER@HOST:PORT/DB>"),
            "tern-nostr.db",
            "tern-nostr.db in the working directory",
            "SQLite database file (created if missing, with -wal and -shm files beside it), or a PostgreSQL"
                    + " database that several relay nodes share (their subscribers see every node's events;"
                    + " the schema is made on first start).");
    public static final Option<Path> DB_PASSWORD_FILE = row(
            "db-password-file",
            path("<file>"),
            null,
            "none: the password in the --db URL, if any",
            "File whose first line is the PostgreSQL password (keeps it out of the command line and"
                    + " --print-config).");
    public static final Option<Boolean> DB_SYNC_FULL = row(
            "db-sync",
            dbSync(),
            true,
            null,
            "SQLite only. full: an acknowledged event survives a power loss (fsync per batch); normal: it"
                    + " survives a crash of the process only, and writes are cheaper.");
    public static final Option<Integer> THREADS = row(
            "threads",
            integer(1, 64),
            1,
            null,
            "Event loops for connections; the relay engine shares the first. More than one only moves"
                    + " socket work off the engine's thread (see the README).");
    public static final Option<AuthMode> AUTH = row(
            "auth",
            authMode(),
            D.authMode(),
            null,
            "What needs NIP-42 authentication: publishing (write), reading (read), both (all) or nothing;"
                    + " AUTH is accepted in every mode.");
    public static final Option<String> PUBLIC_URL = row(
            "public-url",
            text("<url>"),
            null,
            "none: AUTH's relay tag must name the host and port the client connected to",
            "The relay's ws:// or wss:// URL, which NIP-42 AUTH events must name (set it behind a proxy).");
    public static final Option<String> NAME =
            row("name", text("<text>"), D.name(), "'" + D.name() + "'", "NIP-11 name.");
    public static final Option<String> DESCRIPTION =
            row("description", anyText("<text>"), D.description(), "'" + D.description() + "'", "NIP-11 description.");
    public static final Option<String> RELAY_PUBKEY = row(
            "relay-pubkey", text("<hex>"), null, null, "NIP-11 pubkey of the operator (64 lowercase hex characters).");
    public static final Option<String> CONTACT = row("contact", text("<text>"), null, null, "NIP-11 contact.");
    public static final Option<Integer> MAX_MESSAGE_BYTES = intRow(
            "max-message-bytes",
            D.maxMessageBytes(),
            "Largest message acted on; larger gets NOTICE (past twice this the connection closes with 1009).");
    public static final Option<Integer> MAX_SUBSCRIPTIONS =
            intRow("max-subscriptions", D.maxSubscriptions(), "Open REQs plus pending COUNTs per connection.");
    public static final Option<Integer> MAX_FILTERS =
            intRow("max-filters", D.maxFilters(), "Filters per REQ or COUNT.");
    public static final Option<Integer> MAX_LIMIT =
            intRow("max-limit", D.maxLimit(), "A filter's limit is clamped to this.");
    public static final Option<Integer> DEFAULT_LIMIT =
            intRow("default-limit", D.defaultLimit(), "The limit of a filter without one.");
    public static final Option<Integer> MAX_SUBID_LENGTH =
            intRow("max-subid-length", D.maxSubscriptionIdLength(), "Longest subscription id, in characters.");
    public static final Option<Integer> MAX_EVENT_TAGS = intRow("max-event-tags", D.maxEventTags(), "Tags per event.");
    public static final Option<Long> MAX_FUTURE_SECONDS = longRow(
            "max-future-seconds", D.maxFutureSeconds(), "How far ahead of the relay's clock created_at may be.");
    public static final Option<Long> MAX_PAST_SECONDS = longRow(
            "max-past-seconds",
            D.maxPastSeconds(),
            "How far behind the relay's clock created_at may be; 0 for no bound.");
    public static final Option<Long> MAX_EPHEMERAL_AGE_SECONDS = longRow(
            "max-ephemeral-age-seconds", D.maxEphemeralAgeSeconds(), "An ephemeral event older than this is refused.");
    public static final Option<Long> AUTH_WINDOW_SECONDS = longRow(
            "auth-window-seconds",
            D.authWindowSeconds(),
            "How far an AUTH event's created_at may be from the relay's clock.");
    public static final Option<Double> EVENTS_PER_SECOND_PER_IP = rateRow(
            "events-per-second-per-ip",
            D.eventsPerSecondPerIp(),
            "EVENT and AUTH messages per second from one IP address (token bucket), counted by each node"
                    + " apart; 0 turns it off.");
    public static final Option<Integer> EVENT_BURST_PER_IP = intRow(
            "event-burst-per-ip", D.eventBurstPerIp(), "The bucket's size: events one address may send at once.");
    public static final Option<Double> EVENTS_PER_SECOND_PER_PUBKEY = rateRow(
            "events-per-second-per-pubkey",
            D.eventsPerSecondPerPubkey(),
            "EVENTs per second from one author, over every address of this node (each node of a fleet"
                    + " counts its own); 0 turns it off.");
    public static final Option<Integer> EVENT_BURST_PER_PUBKEY =
            intRow("event-burst-per-pubkey", D.eventBurstPerPubkey(), "Events one author may send at once.");
    public static final Option<Double> REQS_PER_SECOND_PER_IP = rateRow(
            "reqs-per-second-per-ip",
            D.reqsPerSecondPerIp(),
            "REQ and COUNT messages per second from one IP address; 0 turns it off.");
    public static final Option<Integer> REQ_BURST_PER_IP =
            intRow("req-burst-per-ip", D.reqBurstPerIp(), "REQs one address may send at once.");
    public static final Option<Integer> RATE_LIMIT_KEYS = intRow(
            "rate-limit-keys",
            D.rateLimitKeys(),
            "Addresses or pubkeys each rate limiter remembers (least recently seen forgotten first).");
    public static final Option<Integer> MAX_CONNECTIONS_PER_IP = intRow(
            "max-connections-per-ip",
            D.maxConnectionsPerIp(),
            "Connections open at once from one IP address; more are closed with 1008.");
    public static final Option<Long> MAX_OUTBOUND_BYTES = longRow(
            "max-outbound-bytes",
            D.maxOutboundBytes(),
            "Bytes queued unsent for one connection before it is a slow reader and is closed with 1008.");
    public static final Option<Long> QUERY_TIMEOUT_MS = longRow(
            "query-timeout-ms",
            D.queryTimeoutNs() / 1_000_000,
            "A REQ's stored phase is cut short with EOSE after this; a COUNT gets CLOSED.");
    public static final Option<Long> PURGE_INTERVAL_SECONDS = longRow(
            "purge-interval-seconds",
            D.purgeIntervalNs() / 1_000_000_000,
            "How often NIP-40 expired events are deleted.");
    public static final Option<Boolean> NIP09 =
            row("nip09", flag(), D.nip09(), "on", "NIP-09 deletion requests (kind 5).");
    public static final Option<Boolean> NIP40 = row("nip40", flag(), D.nip40(), "on", "NIP-40 expiration.");
    public static final Option<Boolean> NIP45 = row("nip45", flag(), D.nip45(), "on", "NIP-45 COUNT.");
    public static final Option<Boolean> PROMETHEUS = row(
            "prometheus",
            flag(),
            false,
            null,
            "Serve Prometheus metrics on /metrics (and /health) at --prometheus-listen:--prometheus-port.");
    public static final Option<String> PROMETHEUS_LISTEN =
            row("prometheus-listen", text("<address>"), "127.0.0.1", null, "Address of the metrics endpoint.");
    public static final Option<Integer> PROMETHEUS_PORT = row(
            "prometheus-port",
            integer("<port>", 0, 65535),
            DEFAULT_PROMETHEUS_PORT,
            null,
            "Port of the metrics endpoint; 0 picks a free one.");

    private NostrOptions() {}

    /** Every row, in help order. */
    public static List<Option<?>> all() {
        return Collections.unmodifiableList(ROWS);
    }

    /** The row named {@code name} (without dashes), or null. */
    public static Option<?> find(String name) {
        for (Option<?> row : ROWS) {
            if (row.name().equals(name)) {
                return row;
            }
        }
        return null;
    }

    private static <V> Option<V> row(String name, OptionType<V> type, V value, String text, String help) {
        Option<V> row = Option.of(name, type, value, text, help);
        ROWS.add(row);
        return row;
    }

    private static Option<Integer> intRow(String name, int value, String help) {
        return row(name, integer(0, Integer.MAX_VALUE), value, null, help);
    }

    private static Option<Long> longRow(String name, long value, String help) {
        return row(name, count(), value, null, help);
    }

    private static Option<Double> rateRow(String name, double value, String help) {
        return row(name, decimal("<per-second>"), value, null, help);
    }

    /** {@code full} (true) or {@code normal}. */
    private static OptionType<Boolean> dbSync() {
        return parsed(
                "<full|normal>",
                text -> switch (text.toLowerCase(Locale.ROOT)) {
                    case "full" -> true;
                    case "normal" -> false;
                    default -> throw new IllegalArgumentException("must be full or normal");
                },
                full -> full ? "full" : "normal");
    }

    private static OptionType<AuthMode> authMode() {
        return parsed(
                "<none|write|read|all>",
                text -> {
                    try {
                        return AuthMode.parse(text);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("must be none, write, read or all");
                    }
                },
                mode -> mode.name().toLowerCase(Locale.ROOT));
    }
}
