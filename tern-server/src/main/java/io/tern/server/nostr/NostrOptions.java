package io.tern.server.nostr;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.RelayConfig;
import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigSource;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * The options of {@code tern nostr}, one row each: the command line ({@code --name value}), the
 * {@code -c} file ({@code name=value}), {@code --help} and the README's table are all made from
 * these rows. A value that does not parse stops start-up naming the option, the value and where it
 * was written; the relay's own checks ({@link RelayConfig.Builder#build()}) do the same for ranges.
 */
public final class NostrOptions {
    private static final RelayConfig D = NostrSettings.DEFAULTS;
    private static final Pattern INTEGER = Pattern.compile("[0-9]{1,18}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,12}(\\.[0-9]{1,9})?");

    /** One option: what it is called, what it takes, its default as help states it, and what it sets. */
    public record Row(String name, String label, String defaultText, String help, Setter setter) {
        /** Help with the default, as {@code --help} shows it. */
        public String helpWithDefault() {
            return help + " Default: " + defaultText + ".";
        }

        void apply(NostrSettings settings, String value, ConfigSource source) {
            settings.setFrom(name, source);
            setter.set(settings, new Value(name, value, source));
        }
    }

    /** One occurrence of an option. */
    record Value(String option, String text, ConfigSource source) {
        ConfigException invalid(String reason) {
            return ConfigException.invalidValue(option, text, reason, source);
        }

        long integer() {
            if (!INTEGER.matcher(text).matches()) {
                throw invalid("must be a whole number >= 0");
            }
            return Long.parseLong(text);
        }

        int intValue() {
            long value = integer();
            if (value > Integer.MAX_VALUE) {
                throw invalid("must be at most " + Integer.MAX_VALUE);
            }
            return (int) value;
        }

        double decimal() {
            if (!DECIMAL.matcher(text).matches()) {
                throw invalid("must be a number >= 0, such as 50 or 0.5");
            }
            return Double.parseDouble(text);
        }

        boolean flag() {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "", "on", "yes", "true", "1" -> true;
                case "off", "no", "false", "0" -> false;
                default -> throw invalid("must be on or off");
            };
        }

        String nonEmpty() {
            if (text.isEmpty()) {
                throw invalid("must not be empty");
            }
            return text;
        }
    }

    @FunctionalInterface
    interface Setter {
        void set(NostrSettings settings, Value value);
    }

    private static final List<Row> ROWS = List.of(
            row("port", "<port>", "7777", "WebSocket (and NIP-11) port; 0 picks a free one.", (s, v) -> {
                long port = v.integer();
                if (port > 65535) {
                    throw v.invalid("must be 0-65535");
                }
                s.port = (int) port;
            }),
            row(
                    "listen",
                    "<address>",
                    "'::' (every IPv4 and IPv6 address; 0.0.0.0 on a host without IPv6)",
                    "Address to listen on.",
                    (s, v) -> {
                        s.listen = v.nonEmpty();
                        s.listenGiven = true;
                    }),
            row(
                    "db",
                    "<file>",
                    "tern-nostr.db in the working directory",
                    "SQLite database file (created if missing, with -wal and -shm files beside it).",
                    (s, v) -> {
                        try {
                            s.db = Path.of(v.nonEmpty());
                        } catch (InvalidPathException e) {
                            throw v.invalid("not a path: " + e.getReason());
                        }
                    }),
            row(
                    "db-sync",
                    "<full|normal>",
                    "full",
                    "full: an acknowledged event survives a power loss (fsync per batch); normal: it survives a"
                            + " crash of the process only, and writes are cheaper.",
                    (s, v) -> s.dbSyncFull = switch (v.text().toLowerCase(Locale.ROOT)) {
                        case "full" -> true;
                        case "normal" -> false;
                        default -> throw v.invalid("must be full or normal");
                    }),
            row(
                    "threads",
                    "<n>",
                    "1",
                    "Event loops for connections; the relay engine shares the first. More than one only moves"
                            + " socket work off the engine's thread (see the README).",
                    (s, v) -> {
                        long threads = v.integer();
                        if (threads < 1 || threads > 64) {
                            throw v.invalid("must be 1-64");
                        }
                        s.threads = (int) threads;
                    }),
            row(
                    "auth",
                    "<none|write|read|all>",
                    "none",
                    "What needs NIP-42 authentication: publishing (write), reading (read), both (all) or nothing;"
                            + " AUTH is accepted in every mode.",
                    (s, v) -> {
                        try {
                            s.auth = AuthMode.parse(v.text());
                        } catch (IllegalArgumentException e) {
                            throw v.invalid("must be none, write, read or all");
                        }
                    }),
            row(
                    "public-url",
                    "<url>",
                    "none: AUTH's relay tag must name the host and port the client connected to",
                    "The relay's ws:// or wss:// URL, which NIP-42 AUTH events must name (set it behind a proxy).",
                    (s, v) -> s.relay.publicUrl(v.nonEmpty())),
            row("name", "<text>", "'" + D.name() + "'", "NIP-11 name.", (s, v) -> s.relay.name(v.nonEmpty())),
            row(
                    "description",
                    "<text>",
                    "'" + D.description() + "'",
                    "NIP-11 description.",
                    (s, v) -> s.relay.description(v.text())),
            row(
                    "relay-pubkey",
                    "<hex>",
                    "none",
                    "NIP-11 pubkey of the operator (64 lowercase hex characters).",
                    (s, v) -> s.relay.operatorPubkey(v.nonEmpty())),
            row("contact", "<text>", "none", "NIP-11 contact.", (s, v) -> s.relay.contact(v.nonEmpty())),
            intRow(
                    "max-message-bytes",
                    D.maxMessageBytes(),
                    "Largest message acted on; larger gets NOTICE (past twice this the connection closes with 1009).",
                    (s, v) -> s.relay.maxMessageBytes(v)),
            intRow(
                    "max-subscriptions",
                    D.maxSubscriptions(),
                    "Open REQs plus pending COUNTs per connection.",
                    (s, v) -> s.relay.maxSubscriptions(v)),
            intRow("max-filters", D.maxFilters(), "Filters per REQ or COUNT.", (s, v) -> s.relay.maxFilters(v)),
            intRow("max-limit", D.maxLimit(), "A filter's limit is clamped to this.", (s, v) -> s.relay.maxLimit(v)),
            intRow(
                    "default-limit",
                    D.defaultLimit(),
                    "The limit of a filter without one.",
                    (s, v) -> s.relay.defaultLimit(v)),
            intRow(
                    "max-subid-length",
                    D.maxSubscriptionIdLength(),
                    "Longest subscription id, in characters.",
                    (s, v) -> s.relay.maxSubscriptionIdLength(v)),
            intRow("max-event-tags", D.maxEventTags(), "Tags per event.", (s, v) -> s.relay.maxEventTags(v)),
            longRow(
                    "max-future-seconds",
                    D.maxFutureSeconds(),
                    "How far ahead of the relay's clock created_at may be.",
                    (s, v) -> s.relay.maxFutureSeconds(v)),
            longRow(
                    "max-past-seconds",
                    D.maxPastSeconds(),
                    "How far behind the relay's clock created_at may be; 0 for no bound.",
                    (s, v) -> s.relay.maxPastSeconds(v)),
            longRow(
                    "max-ephemeral-age-seconds",
                    D.maxEphemeralAgeSeconds(),
                    "An ephemeral event older than this is refused.",
                    (s, v) -> s.relay.maxEphemeralAgeSeconds(v)),
            longRow(
                    "auth-window-seconds",
                    D.authWindowSeconds(),
                    "How far an AUTH event's created_at may be from the relay's clock.",
                    (s, v) -> s.relay.authWindowSeconds(v)),
            rateRow(
                    "events-per-second-per-ip",
                    D.eventsPerSecondPerIp(),
                    "EVENT and AUTH messages per second from one IP address (token bucket); 0 turns it off.",
                    (s, v) -> s.eventsPerSecondPerIp = v),
            intRow(
                    "event-burst-per-ip",
                    D.eventBurstPerIp(),
                    "The bucket's size: events one address may send at once.",
                    (s, v) -> s.eventBurstPerIp = v),
            rateRow(
                    "events-per-second-per-pubkey",
                    D.eventsPerSecondPerPubkey(),
                    "EVENTs per second from one author, over every address; 0 turns it off.",
                    (s, v) -> s.eventsPerSecondPerPubkey = v),
            intRow(
                    "event-burst-per-pubkey",
                    D.eventBurstPerPubkey(),
                    "Events one author may send at once.",
                    (s, v) -> s.eventBurstPerPubkey = v),
            rateRow(
                    "reqs-per-second-per-ip",
                    D.reqsPerSecondPerIp(),
                    "REQ and COUNT messages per second from one IP address; 0 turns it off.",
                    (s, v) -> s.reqsPerSecondPerIp = v),
            intRow(
                    "req-burst-per-ip",
                    D.reqBurstPerIp(),
                    "REQs one address may send at once.",
                    (s, v) -> s.reqBurstPerIp = v),
            intRow(
                    "rate-limit-keys",
                    D.rateLimitKeys(),
                    "Addresses or pubkeys each rate limiter remembers (least recently seen forgotten first).",
                    (s, v) -> s.relay.rateLimitKeys(v)),
            intRow(
                    "max-connections-per-ip",
                    D.maxConnectionsPerIp(),
                    "Connections open at once from one IP address; more are closed with 1008.",
                    (s, v) -> s.relay.maxConnectionsPerIp(v)),
            longRow(
                    "max-outbound-bytes",
                    D.maxOutboundBytes(),
                    "Bytes queued unsent for one connection before it is a slow reader and is closed with 1008.",
                    (s, v) -> s.relay.maxOutboundBytes(v)),
            longRow(
                    "query-timeout-ms",
                    D.queryTimeoutNs() / 1_000_000,
                    "A REQ's stored phase is cut short with EOSE after this; a COUNT gets CLOSED.",
                    (s, v) -> s.relay.queryTimeoutMillis(v)),
            longRow(
                    "purge-interval-seconds",
                    D.purgeIntervalNs() / 1_000_000_000,
                    "How often NIP-40 expired events are deleted.",
                    (s, v) -> s.relay.purgeIntervalSeconds(v)),
            flagRow("nip09", "NIP-09 deletion requests (kind 5).", (s, v) -> s.relay.nip09(v)),
            flagRow("nip40", "NIP-40 expiration.", (s, v) -> s.relay.nip40(v)),
            flagRow("nip45", "NIP-45 COUNT.", (s, v) -> s.relay.nip45(v)),
            row(
                    "prometheus",
                    "<on|off>",
                    "off",
                    "Serve Prometheus metrics on /metrics (and /health) at --prometheus-listen:--prometheus-port.",
                    (s, v) -> s.prometheus = v.flag()),
            row(
                    "prometheus-listen",
                    "<address>",
                    "127.0.0.1",
                    "Address of the metrics endpoint.",
                    (s, v) -> s.prometheusListen = v.nonEmpty()),
            row(
                    "prometheus-port",
                    "<port>",
                    String.valueOf(NostrSettings.DEFAULT_PROMETHEUS_PORT),
                    "Port of the metrics endpoint; 0 picks a free one.",
                    (s, v) -> {
                        long port = v.integer();
                        if (port > 65535) {
                            throw v.invalid("must be 0-65535");
                        }
                        s.prometheusPort = (int) port;
                    }));

    private NostrOptions() {}

    public static List<Row> all() {
        return ROWS;
    }

    /** The row named {@code name} (without dashes), or null. */
    public static Row find(String name) {
        for (Row row : ROWS) {
            if (row.name().equals(name)) {
                return row;
            }
        }
        return null;
    }

    private static Row row(String name, String label, String defaultText, String help, Setter setter) {
        return new Row(name, label, defaultText, help, setter);
    }

    private static Row intRow(String name, int defaultValue, String help, BiConsumer<NostrSettings, Integer> set) {
        return row(name, "<n>", Integer.toString(defaultValue), help, (s, v) -> set.accept(s, v.intValue()));
    }

    private static Row longRow(String name, long defaultValue, String help, BiConsumer<NostrSettings, Long> set) {
        return row(name, "<n>", Long.toString(defaultValue), help, (s, v) -> set.accept(s, v.integer()));
    }

    private static Row rateRow(String name, double defaultValue, String help, BiConsumer<NostrSettings, Double> set) {
        String text = defaultValue == Math.rint(defaultValue)
                ? Long.toString((long) defaultValue)
                : Double.toString(defaultValue);
        return row(name, "<per-second>", text, help, (s, v) -> set.accept(s, v.decimal()));
    }

    private static Row flagRow(String name, String help, BiConsumer<NostrSettings, Boolean> set) {
        return row(name, "<on|off>", "on", help, (s, v) -> set.accept(s, v.flag()));
    }
}
