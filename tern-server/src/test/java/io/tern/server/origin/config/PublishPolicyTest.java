package io.tern.server.origin.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.option.Occurrence;
import io.tern.server.origin.auth.PublishPolicy;
import io.tern.server.origin.auth.PublishRequest;
import io.tern.server.origin.auth.PublishTokens;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may publish, from the configuration: a generated server secret (announced with a working
 * example URL), a stream's own secret, no-publish-auth server-wide or per stream.
 */
class PublishPolicyTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(1_000_000));

    @TempDir
    Path dir;

    @Test
    void withoutASecretOneIsGeneratedAndTheAnnouncedExampleUrlPublishes() throws Exception {
        PublishPolicy policy = policy(List.of());
        assertThat(policy.tokensByDefault()).isTrue();
        assertThat(policy.serverSecret().generated()).isTrue();
        assertThat(policy.serverSecret().secret()).matches("[0-9a-f]{64}");
        String announcement = policy.serverSecret()
                .announcement("rtmp://127.0.0.1:1935", "live", "cam1", 1_000_000, policy.serverTokens());
        assertThat(announcement).startsWith("Generated publish secret (--publish-secret), shown once: ");
        String token = announcement.replaceAll("(?s).*\\?token=(\\S+).*", "$1");
        assertThat(allowed(policy, "cam1", token)).isTrue();
        assertThat(allowed(policy, "cam2", token))
                .as("a token is for its stream")
                .isFalse();
        assertThat(allowed(policy, "cam1", null)).isFalse();
    }

    @Test
    void aStreamsOwnSecretSignsItsTokensAndNoPublishAuthOpensOneStream() throws Exception {
        Path secretFile = dir.resolve("server.secret");
        Files.writeString(secretFile, "server-secret\n");
        List<Occurrence> file = OriginConfigFile.parse(
                "origin.conf",
                List.of(
                        "publish-secret-file = " + secretFile,
                        "[stream studio]",
                        "publish-secret = studio-secret",
                        "[stream open]",
                        "no-publish-auth"));
        PublishPolicy policy = policy(file);
        assertThat(policy.serverSecret().generated()).isFalse();
        String studio = new PublishTokens("studio-secret", CLOCK).mint("live", "studio", 1_000_100);
        String server = new PublishTokens("server-secret", CLOCK).mint("live", "studio", 1_000_100);
        assertThat(allowed(policy, "studio", studio)).isTrue();
        assertThat(allowed(policy, "studio", server))
                .as("the stream's own secret, not the server's")
                .isFalse();
        assertThat(allowed(policy, "cam1", new PublishTokens("server-secret", CLOCK).mint("live", "cam1", 1_000_100)))
                .isTrue();
        assertThat(allowed(policy, "open", null)).isTrue();
    }

    @Test
    void serverWideNoPublishAuthStillGuardsAStreamWithItsOwnSecret() throws Exception {
        PublishPolicy policy = policy(OriginConfigFile.parse(
                "origin.conf", List.of("no-publish-auth", "[stream vip]", "publish-secret = vip-secret")));
        assertThat(policy.tokensByDefault()).isFalse();
        assertThat(policy.serverSecret())
                .as("no stream needs the server's secret")
                .isNull();
        assertThat(allowed(policy, "anyone", null)).isTrue();
        assertThat(allowed(policy, "vip", null)).isFalse();
        assertThat(allowed(policy, "vip", new PublishTokens("vip-secret", CLOCK).mint("live", "vip", 1_000_100)))
                .isTrue();
    }

    private static PublishPolicy policy(List<Occurrence> file) {
        return new PublishPolicy(OriginConfig.assemble(file, List.of()), new SecureRandom(), CLOCK);
    }

    private static boolean allowed(PublishPolicy policy, String name, String token) throws Exception {
        PublishRequest request = new PublishRequest(
                "rtmp", "live", name, new InetSocketAddress("127.0.0.1", 1), token == null ? "" : "token=" + token);
        return policy.authorizer(name).authorize(request).get().allowed();
    }
}
