package io.tern.server.nostr;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.RelayConfig;
import io.tern.nostr.store.sqlite.SqliteStoreConfig;
import io.tern.server.config.AddressPlan;
import io.tern.server.config.ConfigException;
import io.tern.server.config.ConfigSource;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The effective settings of {@code tern nostr}: what the options set, starting from the embedded
 * defaults, and the relay and store configurations made from them. Written by the rows of
 * {@link NostrOptions} only.
 */
public final class NostrSettings {
    /** The engine's defaults, which the options start from. */
    static final RelayConfig DEFAULTS = RelayConfig.defaults();

    final RelayConfig.Builder relay = RelayConfig.builder();
    String listen = "::";
    boolean listenGiven;
    int port = 7777;
    /** Beside TURN's 9641 and the origin's 9642, so the three products can run on one host. */
    static final int DEFAULT_PROMETHEUS_PORT = 9643;

    int threads = 1;
    Path db = Path.of("tern-nostr.db");
    boolean dbSyncFull = true;
    boolean prometheus;
    String prometheusListen = "127.0.0.1";
    int prometheusPort = DEFAULT_PROMETHEUS_PORT;
    double eventsPerSecondPerIp = DEFAULTS.eventsPerSecondPerIp();
    int eventBurstPerIp = DEFAULTS.eventBurstPerIp();
    double eventsPerSecondPerPubkey = DEFAULTS.eventsPerSecondPerPubkey();
    int eventBurstPerPubkey = DEFAULTS.eventBurstPerPubkey();
    double reqsPerSecondPerIp = DEFAULTS.reqsPerSecondPerIp();
    int reqBurstPerIp = DEFAULTS.reqBurstPerIp();
    AuthMode auth = DEFAULTS.authMode();

    private static final Pattern RELAY_MESSAGE =
            Pattern.compile("([a-z0-9-]+): invalid value '(.*)' \\((.*)\\)", Pattern.DOTALL);

    /** Where each option was last set, for messages about values only checked together. */
    private final Map<String, ConfigSource> sources = new HashMap<>();

    private RelayConfig built;

    void setFrom(String option, ConfigSource source) {
        sources.put(option, source);
    }

    /** The relay's configuration; a value the relay refuses stops start-up, naming the option, value and place. */
    public RelayConfig relayConfig() {
        if (built == null) {
            try {
                built = relay.authMode(auth)
                        .eventRatePerIp(eventsPerSecondPerIp, eventBurstPerIp)
                        .eventRatePerPubkey(eventsPerSecondPerPubkey, eventBurstPerPubkey)
                        .reqRatePerIp(reqsPerSecondPerIp, reqBurstPerIp)
                        .build();
            } catch (IllegalArgumentException refused) {
                // The relay says "option: invalid value 'v' (expected ...)"; add where it was written.
                Matcher m = RELAY_MESSAGE.matcher(refused.getMessage());
                if (!m.matches()) {
                    throw new ConfigException(refused.getMessage());
                }
                ConfigSource source = sources.getOrDefault(m.group(1), ConfigSource.defaultValue());
                throw ConfigException.invalidValue(m.group(1), m.group(2), m.group(3), source);
            }
        }
        return built;
    }

    public SqliteStoreConfig storeConfig() {
        SqliteStoreConfig defaults = SqliteStoreConfig.defaults(db.toAbsolutePath());
        return new SqliteStoreConfig(
                defaults.path(),
                dbSyncFull,
                defaults.readConnections(),
                defaults.maxWriteBatch(),
                defaults.sliceNs(),
                defaults.rowsPerStep());
    }

    /** {@code --listen}, by default '::' where the host has IPv6 (a dual-stack socket) and else 0.0.0.0. */
    public InetSocketAddress listenAddress() {
        if (listenGiven) {
            return new InetSocketAddress(listen, port);
        }
        boolean ipv6 = AddressPlan.interfaceAddresses().stream().anyMatch(Inet6Address.class::isInstance);
        return new InetSocketAddress(ipv6 ? "::" : "0.0.0.0", port);
    }

    public int threads() {
        return threads;
    }

    public Path db() {
        return db;
    }

    public boolean prometheus() {
        return prometheus;
    }

    public InetSocketAddress prometheusAddress() {
        return new InetSocketAddress(prometheusListen, prometheusPort);
    }
}
