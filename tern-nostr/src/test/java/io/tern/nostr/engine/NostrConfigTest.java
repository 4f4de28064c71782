package io.tern.nostr.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NostrConfigTest {
    @Test
    void defaultsAreTheIssues() {
        NostrConfig c = NostrConfig.defaults();
        assertThat(c.maxMessageBytes()).isEqualTo(128 * 1024);
        assertThat(c.maxSubscriptions()).isEqualTo(200);
        assertThat(c.maxFilters()).isEqualTo(500);
        assertThat(c.maxLimit()).isEqualTo(500);
        assertThat(c.maxConnectionsPerIp()).isEqualTo(64);
        assertThat(c.maxOutboundBytes()).isEqualTo(4L * 1024 * 1024);
        assertThat(c.authMode()).isEqualTo(AuthMode.NONE);
    }

    @Test
    void invalidValuesNameTheOptionAndTheValue() {
        assertThatThrownBy(() -> NostrConfig.builder().maxSubscriptions(0).build())
                .hasMessage("max-subscriptions: invalid value '0' (expected >= 1)");
        assertThatThrownBy(() ->
                        NostrConfig.builder().maxLimit(10).defaultLimit(20).build())
                .hasMessage("default-limit: invalid value '20' (expected at most max-limit (10))");
        assertThatThrownBy(() -> NostrConfig.builder().publicUrl("https://x").build())
                .hasMessageStartingWith("public-url: invalid value 'https://x'");
        assertThatThrownBy(() -> NostrConfig.builder().operatorPubkey("ABC").build())
                .hasMessageStartingWith("relay-pubkey: invalid value 'ABC'");
        assertThatThrownBy(() ->
                        NostrConfig.builder().eventRatePerIp(Double.NaN, 5).build())
                .hasMessageStartingWith("events-per-second-per-ip: invalid value 'NaN'");
        assertThatThrownBy(() -> NostrConfig.builder().maxOutboundBytes(10).build())
                .hasMessageStartingWith("max-outbound-bytes: invalid value '10'");
        assertThatThrownBy(() -> NostrConfig.builder().recentBroadcasts(0).build())
                .hasMessage("recent-broadcasts: invalid value '0' (expected >= 1)");
        assertThatThrownBy(() -> AuthMode.parse("sometimes"))
                .hasMessage("auth must be none, write, read or all, got 'sometimes'");
        assertThat(AuthMode.parse("Write")).isEqualTo(AuthMode.WRITE);
    }
}
