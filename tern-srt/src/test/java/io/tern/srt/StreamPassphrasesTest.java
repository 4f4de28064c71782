package io.tern.srt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.srt.handshake.RejectReason;
import io.tern.srt.handshake.StreamId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamPassphrasesTest {
    final StreamPassphrases p = new StreamPassphrases(
            "live/", "server-default-pass", Map.of("live/cam2", "camera-two-pass"), Map.of("alice", "alice-pass-123"));

    private StreamAuthorizer.Decision ask(String sid) {
        return p.authorize(StreamId.parse(sid), null);
    }

    @Test
    void userBeforeStreamBeforeDefault() {
        assertThat(ask("#!::r=live/cam2,m=publish,u=alice").passphrase()).isEqualTo("alice-pass-123");
        assertThat(ask("publish:live/cam2").passphrase()).isEqualTo("camera-two-pass");
        assertThat(ask("publish:live/cam1").passphrase()).isEqualTo("server-default-pass");
        assertThat(ask("#!::r=live/cam1,m=publish,u=bob").passphrase()).isEqualTo("server-default-pass");
    }

    @Test
    void onlyPublishingUnderThePrefix() {
        assertThat(ask("read:live/cam1").rejectCode()).isEqualTo(RejectReason.X_BAD_MODE);
        assertThat(ask("publish:other/cam1").rejectCode()).isEqualTo(RejectReason.X_NOTFOUND);
        assertThat(ask("publish:live/").accepted()).isFalse();
    }

    @Test
    void aBadPassphraseFailsAtStartNamingIt() {
        assertThatThrownBy(() -> new StreamPassphrases("live/", null, Map.of("live/x", "short"), Map.of()))
                .hasMessageContaining("stream live/x")
                .hasMessageContaining("10 to 79");
    }
}
