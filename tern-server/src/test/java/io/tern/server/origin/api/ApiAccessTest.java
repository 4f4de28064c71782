package io.tern.server.origin.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's token options: valid ones are taken, each invalid one fails at start naming its option, never the secret. */
class ApiAccessTest {
    private static final String GOOD = "abcdefghijklmnop-0123456789";

    @TempDir
    Path dir;

    private static OriginConfig config(String... pairs) {
        List<Occurrence> cli = new java.util.ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            cli.add(new Occurrence(OriginOptions.byName(pairs[i]), pairs[i + 1], ConfigSource.commandLine(), null));
        }
        return OriginConfig.assemble(List.of(), cli);
    }

    @Test
    void withoutATokenOnlyLoopbackIsServed() {
        assertThat(ApiAccess.from(config()).tokenRequired()).isFalse();
        assertThat(ApiAccess.from(config("api-token", GOOD)).tokenRequired()).isTrue();
    }

    @Test
    void aTokenFileGivesItsFirstLine() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), GOOD + "\nignored\n");
        assertThat(ApiAccess.from(config("api-token-file", file.toString())).tokenRequired())
                .isTrue();
    }

    @Test
    void aShortTokenIsNamedWithoutShowingIt() {
        assertThatThrownBy(() -> ApiAccess.from(config("api-token", "short")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid value for option 'api-token': '<hidden, 5 characters>'")
                .hasMessageContaining("at least 16")
                .hasMessageNotContaining("short'");
    }

    @Test
    void aTokenWithCharactersABearerTokenCannotHaveIsNamed() {
        assertThatThrownBy(() -> ApiAccess.from(config("api-token", "has spaces in it, sixteen+")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'api-token'")
                .hasMessageContaining("characters a bearer token may not have");
    }

    @Test
    void anUnreadableOrBadTokenFileIsNamed() throws Exception {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> ApiAccess.from(config("api-token-file", missing.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid value for option 'api-token-file': '" + missing + "'")
                .hasMessageContaining("cannot read it");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        assertThatThrownBy(() -> ApiAccess.from(config("api-token-file", empty.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'api-token-file'")
                .hasMessageContaining("its first line is 0 characters long");
    }

    @Test
    void bothOptionsExcludeEachOther() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), GOOD);
        assertThatThrownBy(() -> ApiAccess.from(config("api-token", GOOD, "api-token-file", file.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Options 'api-token'")
                .hasMessageContaining("'api-token-file'")
                .hasMessageContaining("exclude each other");
    }

    @Test
    void routeTemplatesMatchWholeSegments() {
        assertThat(ApiRoutes.matches("/api/v1/streams/{name}", "/api/v1/streams/cam1"))
                .isTrue();
        assertThat(ApiRoutes.matches("/api/v1/streams/{name}", "/api/v1/streams/"))
                .isFalse();
        assertThat(ApiRoutes.matches("/api/v1/streams/{name}", "/api/v1/streams/a/b"))
                .isFalse();
        assertThat(ApiRoutes.matches("/api/v1/streams", "/api/v1/streamsx")).isFalse();
    }
}
