package io.tern.nostr.info;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.json.JsonWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The NIP-11 relay information document, a pure function of the configuration: the limits it
 * states are the ones the engine enforces, and {@code supported_nips} lists only the NIPs that
 * are switched on. Serving it (on the relay's own URL, for {@code Accept: application/nostr+json},
 * with {@link #CORS_HEADERS}) is the adapter's part.
 */
public final class NostrRelayInformation {
    public static final String MEDIA_TYPE = "application/nostr+json";

    /** NIP-11: relays MUST answer CORS requests. */
    public static final Map<String, String> CORS_HEADERS = Map.of(
            "Access-Control-Allow-Origin", "*",
            "Access-Control-Allow-Headers", "*",
            "Access-Control-Allow-Methods", "GET, OPTIONS");

    public static final String SOFTWARE = "https://github.com/tern-edge/tern";

    private NostrRelayInformation() {}

    /** NIP numbers served under {@code config}, ascending. */
    public static List<Integer> supportedNips(NostrConfig config) {
        List<Integer> nips = new ArrayList<>(List.of(1));
        if (config.nip09()) {
            nips.add(9);
        }
        nips.add(11);
        if (config.nip40()) {
            nips.add(40);
        }
        nips.add(42);
        if (config.nip45()) {
            nips.add(45);
        }
        return nips;
    }

    /** The document as UTF-8 JSON. */
    public static byte[] document(NostrConfig config, String version) {
        JsonWriter w = new JsonWriter(1024);
        w.ascii("{\"name\":").string(config.name());
        w.ascii(",\"description\":").string(config.description());
        if (config.operatorPubkey() != null) {
            w.ascii(",\"pubkey\":").string(config.operatorPubkey());
        }
        if (config.contact() != null) {
            w.ascii(",\"contact\":").string(config.contact());
        }
        w.ascii(",\"supported_nips\":[");
        List<Integer> nips = supportedNips(config);
        for (int i = 0; i < nips.size(); i++) {
            w.ascii(i == 0 ? "" : ",").number(nips.get(i));
        }
        w.ascii("],\"software\":").string(SOFTWARE);
        w.ascii(",\"version\":").string(version);
        AuthMode auth = config.authMode();
        w.ascii(",\"limitation\":{");
        w.ascii("\"max_message_length\":").number(config.maxMessageBytes());
        w.ascii(",\"max_subscriptions\":").number(config.maxSubscriptions());
        w.ascii(",\"max_filters\":").number(config.maxFilters());
        w.ascii(",\"max_limit\":").number(config.maxLimit());
        w.ascii(",\"default_limit\":").number(config.defaultLimit());
        w.ascii(",\"max_subid_length\":").number(config.maxSubscriptionIdLength());
        w.ascii(",\"max_event_tags\":").number(config.maxEventTags());
        w.ascii(",\"min_pow_difficulty\":0");
        w.ascii(",\"auth_required\":").bool(auth.requiredToRead());
        w.ascii(",\"payment_required\":false");
        w.ascii(",\"restricted_writes\":").bool(auth.requiredToWrite());
        if (config.maxPastSeconds() > 0) {
            w.ascii(",\"created_at_lower_limit\":").number(config.maxPastSeconds());
        }
        w.ascii(",\"created_at_upper_limit\":").number(config.maxFutureSeconds());
        w.ascii("}}");
        return w.toByteArray();
    }
}
