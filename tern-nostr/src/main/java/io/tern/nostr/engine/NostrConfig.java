package io.tern.nostr.engine;

import java.net.URI;

/**
 * Every limit and switch of the relay engine, with the defaults of issue 15. Built with
 * {@link #builder()}; {@link Builder#build()} rejects invalid values, naming the option (in the
 * server's {@code --kebab-case}) and the value.
 */
public final class NostrConfig {
    private final String publicUrl;
    private final String name;
    private final String description;
    private final String operatorPubkey;
    private final String contact;
    private final AuthMode authMode;
    private final int maxMessageBytes;
    private final int maxSubscriptions;
    private final int maxFilters;
    private final int maxLimit;
    private final int defaultLimit;
    private final int maxSubscriptionIdLength;
    private final int maxEventTags;
    private final long maxFutureSeconds;
    private final long maxPastSeconds;
    private final long maxEphemeralAgeSeconds;
    private final long authWindowSeconds;
    private final double eventsPerSecondPerIp;
    private final int eventBurstPerIp;
    private final double eventsPerSecondPerPubkey;
    private final int eventBurstPerPubkey;
    private final double reqsPerSecondPerIp;
    private final int reqBurstPerIp;
    private final int rateLimitKeys;
    private final int recentBroadcasts;
    private final int maxConnectionsPerIp;
    private final long maxOutboundBytes;
    private final long queryTimeoutNs;
    private final long purgeIntervalNs;
    private final boolean nip09;
    private final boolean nip40;
    private final boolean nip45;

    private NostrConfig(Builder b) {
        publicUrl = b.publicUrl;
        name = b.name;
        description = b.description;
        operatorPubkey = b.operatorPubkey;
        contact = b.contact;
        authMode = b.authMode;
        maxMessageBytes = b.maxMessageBytes;
        maxSubscriptions = b.maxSubscriptions;
        maxFilters = b.maxFilters;
        maxLimit = b.maxLimit;
        defaultLimit = b.defaultLimit;
        maxSubscriptionIdLength = b.maxSubscriptionIdLength;
        maxEventTags = b.maxEventTags;
        maxFutureSeconds = b.maxFutureSeconds;
        maxPastSeconds = b.maxPastSeconds;
        maxEphemeralAgeSeconds = b.maxEphemeralAgeSeconds;
        authWindowSeconds = b.authWindowSeconds;
        eventsPerSecondPerIp = b.eventsPerSecondPerIp;
        eventBurstPerIp = b.eventBurstPerIp;
        eventsPerSecondPerPubkey = b.eventsPerSecondPerPubkey;
        eventBurstPerPubkey = b.eventBurstPerPubkey;
        reqsPerSecondPerIp = b.reqsPerSecondPerIp;
        reqBurstPerIp = b.reqBurstPerIp;
        rateLimitKeys = b.rateLimitKeys;
        recentBroadcasts = b.recentBroadcasts;
        maxConnectionsPerIp = b.maxConnectionsPerIp;
        maxOutboundBytes = b.maxOutboundBytes;
        queryTimeoutNs = b.queryTimeoutMillis * 1_000_000L;
        purgeIntervalNs = b.purgeIntervalSeconds * 1_000_000_000L;
        nip09 = b.nip09;
        nip40 = b.nip40;
        nip45 = b.nip45;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static NostrConfig defaults() {
        return builder().build();
    }

    /** The relay's public URL ({@code wss://relay.example/}) for NIP-42 and NIP-11, or null. */
    public String publicUrl() {
        return publicUrl;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** The operator's pubkey (hex) for NIP-11, or null. */
    public String operatorPubkey() {
        return operatorPubkey;
    }

    public String contact() {
        return contact;
    }

    public AuthMode authMode() {
        return authMode;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public int maxSubscriptions() {
        return maxSubscriptions;
    }

    public int maxFilters() {
        return maxFilters;
    }

    public int maxLimit() {
        return maxLimit;
    }

    /** The limit applied to a filter without one. */
    public int defaultLimit() {
        return defaultLimit;
    }

    public int maxSubscriptionIdLength() {
        return maxSubscriptionIdLength;
    }

    public int maxEventTags() {
        return maxEventTags;
    }

    /** How far ahead of the relay's clock created_at may be. */
    public long maxFutureSeconds() {
        return maxFutureSeconds;
    }

    /** How far behind the relay's clock created_at may be; 0 for no bound. */
    public long maxPastSeconds() {
        return maxPastSeconds;
    }

    /** How far behind the relay's clock an ephemeral event's created_at may be. */
    public long maxEphemeralAgeSeconds() {
        return maxEphemeralAgeSeconds;
    }

    /** How far a NIP-42 AUTH event's created_at may be from the relay's clock, either way. */
    public long authWindowSeconds() {
        return authWindowSeconds;
    }

    public double eventsPerSecondPerIp() {
        return eventsPerSecondPerIp;
    }

    public int eventBurstPerIp() {
        return eventBurstPerIp;
    }

    public double eventsPerSecondPerPubkey() {
        return eventsPerSecondPerPubkey;
    }

    public int eventBurstPerPubkey() {
        return eventBurstPerPubkey;
    }

    public double reqsPerSecondPerIp() {
        return reqsPerSecondPerIp;
    }

    public int reqBurstPerIp() {
        return reqBurstPerIp;
    }

    /** Distinct IPs or pubkeys each rate limiter tracks at most (least recently seen forgotten first). */
    public int rateLimitKeys() {
        return rateLimitKeys;
    }

    /**
     * Events remembered as broadcast, so that one reaching the engine again (the fleet's bus
     * echoing this node's own, or bringing one twice) goes out once. The default, 65,536, is 6.5 s
     * at 10,000 events/s, far longer than an event takes to cross the bus (about 1.5 MB).
     */
    public int recentBroadcasts() {
        return recentBroadcasts;
    }

    public int maxConnectionsPerIp() {
        return maxConnectionsPerIp;
    }

    /** Bytes a connection may have queued unsent before it is a slow reader and is disconnected. */
    public long maxOutboundBytes() {
        return maxOutboundBytes;
    }

    /** How long a REQ's stored phase may take before it is cut short with EOSE. */
    public long queryTimeoutNs() {
        return queryTimeoutNs;
    }

    /** How often expired events are purged from the store. */
    public long purgeIntervalNs() {
        return purgeIntervalNs;
    }

    public boolean nip09() {
        return nip09;
    }

    public boolean nip40() {
        return nip40;
    }

    public boolean nip45() {
        return nip45;
    }

    /** Mutable, unchecked until {@link #build()}. */
    public static final class Builder {
        private String publicUrl;
        private String name = "Tern";
        private String description = "A Nostr relay hosted by Tern";
        private String operatorPubkey;
        private String contact;
        private AuthMode authMode = AuthMode.NONE;
        private int maxMessageBytes = 128 * 1024;
        private int maxSubscriptions = 200;
        private int maxFilters = 500;
        private int maxLimit = 500;
        private int defaultLimit = 500;
        private int maxSubscriptionIdLength = 64;
        private int maxEventTags = 2000;
        private long maxFutureSeconds = 900;
        private long maxPastSeconds = 0;
        private long maxEphemeralAgeSeconds = 60;
        private long authWindowSeconds = 600;
        // Sized for a household or an office behind one address, and a client that publishes its
        // outbox or opens its subscriptions in a burst after being offline; a benchmark or a bridge
        // from one address raises them (0 turns a limit off).
        private double eventsPerSecondPerIp = 100;
        private int eventBurstPerIp = 1000;
        private double eventsPerSecondPerPubkey = 50;
        private int eventBurstPerPubkey = 500;
        private double reqsPerSecondPerIp = 100;
        private int reqBurstPerIp = 1000;
        private int rateLimitKeys = 65536;
        private int recentBroadcasts = 65536;
        private int maxConnectionsPerIp = 64;
        private long maxOutboundBytes = 4L * 1024 * 1024;
        private long queryTimeoutMillis = 10_000;
        private long purgeIntervalSeconds = 60;
        private boolean nip09 = true;
        private boolean nip40 = true;
        private boolean nip45 = true;

        private Builder() {}

        public Builder publicUrl(String v) {
            publicUrl = v;
            return this;
        }

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder description(String v) {
            description = v;
            return this;
        }

        public Builder operatorPubkey(String v) {
            operatorPubkey = v;
            return this;
        }

        public Builder contact(String v) {
            contact = v;
            return this;
        }

        public Builder authMode(AuthMode v) {
            authMode = v;
            return this;
        }

        public Builder maxMessageBytes(int v) {
            maxMessageBytes = v;
            return this;
        }

        public Builder maxSubscriptions(int v) {
            maxSubscriptions = v;
            return this;
        }

        public Builder maxFilters(int v) {
            maxFilters = v;
            return this;
        }

        public Builder maxLimit(int v) {
            maxLimit = v;
            return this;
        }

        public Builder defaultLimit(int v) {
            defaultLimit = v;
            return this;
        }

        public Builder maxSubscriptionIdLength(int v) {
            maxSubscriptionIdLength = v;
            return this;
        }

        public Builder maxEventTags(int v) {
            maxEventTags = v;
            return this;
        }

        public Builder maxFutureSeconds(long v) {
            maxFutureSeconds = v;
            return this;
        }

        public Builder maxPastSeconds(long v) {
            maxPastSeconds = v;
            return this;
        }

        public Builder maxEphemeralAgeSeconds(long v) {
            maxEphemeralAgeSeconds = v;
            return this;
        }

        public Builder authWindowSeconds(long v) {
            authWindowSeconds = v;
            return this;
        }

        public Builder eventRatePerIp(double perSecond, int burst) {
            eventsPerSecondPerIp = perSecond;
            eventBurstPerIp = burst;
            return this;
        }

        public Builder eventRatePerPubkey(double perSecond, int burst) {
            eventsPerSecondPerPubkey = perSecond;
            eventBurstPerPubkey = burst;
            return this;
        }

        public Builder reqRatePerIp(double perSecond, int burst) {
            reqsPerSecondPerIp = perSecond;
            reqBurstPerIp = burst;
            return this;
        }

        public Builder rateLimitKeys(int v) {
            rateLimitKeys = v;
            return this;
        }

        public Builder recentBroadcasts(int v) {
            recentBroadcasts = v;
            return this;
        }

        public Builder maxConnectionsPerIp(int v) {
            maxConnectionsPerIp = v;
            return this;
        }

        public Builder maxOutboundBytes(long v) {
            maxOutboundBytes = v;
            return this;
        }

        public Builder queryTimeoutMillis(long v) {
            queryTimeoutMillis = v;
            return this;
        }

        public Builder purgeIntervalSeconds(long v) {
            purgeIntervalSeconds = v;
            return this;
        }

        public Builder nip09(boolean v) {
            nip09 = v;
            return this;
        }

        public Builder nip40(boolean v) {
            nip40 = v;
            return this;
        }

        public Builder nip45(boolean v) {
            nip45 = v;
            return this;
        }

        public NostrConfig build() {
            if (publicUrl != null) {
                checkUrl(publicUrl);
            }
            if (operatorPubkey != null && !io.tern.nostr.event.Hex.isLowerHex(operatorPubkey, 64)) {
                throw invalid("relay-pubkey", operatorPubkey, "64 lowercase hex characters");
            }
            if (authMode == null) {
                throw invalid("auth", null, "none, write, read or all");
            }
            atLeast("max-message-bytes", maxMessageBytes, 256);
            atLeast("max-subscriptions", maxSubscriptions, 1);
            atLeast("max-filters", maxFilters, 1);
            atLeast("max-limit", maxLimit, 1);
            atLeast("default-limit", defaultLimit, 1);
            if (defaultLimit > maxLimit) {
                throw invalid("default-limit", defaultLimit, "at most max-limit (" + maxLimit + ")");
            }
            atLeast("max-subid-length", maxSubscriptionIdLength, 1);
            atLeast("max-event-tags", maxEventTags, 1);
            atLeast("max-future-seconds", maxFutureSeconds, 0);
            atLeast("max-past-seconds", maxPastSeconds, 0);
            atLeast("max-ephemeral-age-seconds", maxEphemeralAgeSeconds, 1);
            atLeast("auth-window-seconds", authWindowSeconds, 1);
            rate("events-per-second-per-ip", eventsPerSecondPerIp, "event-burst-per-ip", eventBurstPerIp);
            rate(
                    "events-per-second-per-pubkey",
                    eventsPerSecondPerPubkey,
                    "event-burst-per-pubkey",
                    eventBurstPerPubkey);
            rate("reqs-per-second-per-ip", reqsPerSecondPerIp, "req-burst-per-ip", reqBurstPerIp);
            atLeast("rate-limit-keys", rateLimitKeys, 1);
            atLeast("recent-broadcasts", recentBroadcasts, 1);
            atLeast("max-connections-per-ip", maxConnectionsPerIp, 1);
            atLeast("max-outbound-bytes", maxOutboundBytes, 64 * 1024);
            atLeast("query-timeout-ms", queryTimeoutMillis, 1);
            atLeast("purge-interval-seconds", purgeIntervalSeconds, 1);
            return new NostrConfig(this);
        }

        private static void checkUrl(String url) {
            try {
                URI u = new URI(url);
                String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(java.util.Locale.ROOT);
                if (!(scheme.equals("ws") || scheme.equals("wss")) || u.getHost() == null) {
                    throw invalid("public-url", url, "a ws:// or wss:// URL with a host");
                }
            } catch (java.net.URISyntaxException e) {
                throw invalid("public-url", url, "a ws:// or wss:// URL with a host");
            }
        }

        private static void rate(String rateName, double perSecond, String burstName, int burst) {
            if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
                throw invalid(rateName, perSecond, "a number >= 0 (0 disables the limit)");
            }
            atLeast(burstName, burst, 1);
        }

        private static void atLeast(String option, long value, long min) {
            if (value < min) {
                throw invalid(option, value, ">= " + min);
            }
        }

        private static IllegalArgumentException invalid(String option, Object value, String expected) {
            return new IllegalArgumentException(option + ": invalid value '" + value + "' (expected " + expected + ")");
        }
    }
}
