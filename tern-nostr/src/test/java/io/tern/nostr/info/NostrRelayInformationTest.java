package io.tern.nostr.info;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.NostrConfig;
import io.tern.nostr.testing.TestJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NostrRelayInformationTest {
    @SuppressWarnings("unchecked")
    private static Map<String, Object> document(NostrConfig config) {
        return (Map<String, Object>)
                TestJson.parse(new String(NostrRelayInformation.document(config, "0.1.0"), StandardCharsets.UTF_8));
    }

    @Test
    void statesTheDefaultLimits() {
        Map<String, Object> doc = document(NostrConfig.defaults());
        assertThat(doc).containsEntry("name", "Tern").containsEntry("version", "0.1.0");
        assertThat(doc.get("supported_nips")).isEqualTo(List.of(1L, 9L, 11L, 40L, 42L, 45L));
        assertThat(doc).doesNotContainKeys("pubkey", "contact");
        @SuppressWarnings("unchecked")
        Map<String, Object> limits = (Map<String, Object>) doc.get("limitation");
        assertThat(limits)
                .containsEntry("max_message_length", 131072L)
                .containsEntry("max_subscriptions", 200L)
                .containsEntry("max_filters", 500L)
                .containsEntry("max_limit", 500L)
                .containsEntry("default_limit", 500L)
                .containsEntry("max_subid_length", 64L)
                .containsEntry("max_event_tags", 2000L)
                .containsEntry("auth_required", false)
                .containsEntry("restricted_writes", false)
                .containsEntry("payment_required", false)
                .containsEntry("created_at_upper_limit", 900L)
                .doesNotContainKey("created_at_lower_limit");
    }

    @Test
    void followsTheConfiguration() {
        NostrConfig config = NostrConfig.builder()
                .name("rendezvous \"west\"")
                .operatorPubkey("a".repeat(64))
                .contact("mailto:ops@example.com")
                .authMode(AuthMode.ALL)
                .maxSubscriptions(20)
                .maxPastSeconds(86400)
                .nip09(false)
                .nip45(false)
                .build();
        Map<String, Object> doc = document(config);
        assertThat(doc).containsEntry("name", "rendezvous \"west\"").containsEntry("pubkey", "a".repeat(64));
        assertThat(doc.get("supported_nips")).isEqualTo(List.of(1L, 11L, 40L, 42L));
        @SuppressWarnings("unchecked")
        Map<String, Object> limits = (Map<String, Object>) doc.get("limitation");
        assertThat(limits)
                .containsEntry("max_subscriptions", 20L)
                .containsEntry("auth_required", true)
                .containsEntry("restricted_writes", true)
                .containsEntry("created_at_lower_limit", 86400L);
        @SuppressWarnings("unchecked")
        Map<String, Object> writeOnly = (Map<String, Object>)
                document(NostrConfig.builder().authMode(AuthMode.WRITE).build()).get("limitation");
        assertThat(writeOnly).containsEntry("auth_required", false).containsEntry("restricted_writes", true);
    }

    @Test
    void corsHeadersAreThere() {
        assertThat(NostrRelayInformation.CORS_HEADERS)
                .containsKeys(
                        "Access-Control-Allow-Origin", "Access-Control-Allow-Headers", "Access-Control-Allow-Methods");
        assertThat(NostrRelayInformation.MEDIA_TYPE).isEqualTo("application/nostr+json");
    }
}
