package io.tern.server.origin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.origin.ingest.SrtIngest;
import io.tern.srt.StreamPassphrases;
import io.tern.srt.handshake.StreamId;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SRT ingest's options: the issue's defaults, passphrases per stream and per user from the file
 * (users repeated, from the file and the command line), which passphrase a publisher must use, and
 * every invalid value stopping start-up naming the option and where it was written.
 */
class SrtConfigTest {
    private static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 5000);

    @Test
    void theDefaultsAreTheIssues() {
        OriginConfig c = OriginConfig.defaults();
        assertThat(c.get(OriginOptions.SRT_PORT)).isEqualTo(8890);
        assertThat(c.get(OriginOptions.SRT_LATENCY_MS)).isEqualTo(120);
        assertThat(c.get(OriginOptions.SRT_PASSPHRASE))
                .as("unencrypted by default")
                .isNull();
        assertThat(c.getAll(OriginOptions.SRT_USER)).isEmpty();
        assertThat(passphrase(SrtIngest.passphrases(c), "publish:live/cam1")).isNull();
    }

    @Test
    void aUsersPassphraseWinsOverTheStreamsWhichWinsOverTheServers() {
        OriginConfig c = OriginConfig.assemble(
                OriginConfigFile.parse(
                        "origin.conf",
                        List.of(
                                "srt-passphrase = server-wide-passphrase",
                                "srt-user = alice:alice-own-passphrase",
                                "srt-latency-ms = 300",
                                "[stream cam1]",
                                "srt-passphrase = cam1-only-passphrase")),
                List.of(new Occurrence(
                        OriginOptions.SRT_USER, "bob:bob-own-passphrase", ConfigSource.commandLine(), null)));
        assertThat(c.get(OriginOptions.SRT_LATENCY_MS)).isEqualTo(300);
        StreamPassphrases p = SrtIngest.passphrases(c);
        assertThat(passphrase(p, "publish:live/cam1")).isEqualTo("cam1-only-passphrase");
        assertThat(passphrase(p, "#!::r=live/cam1,m=publish")).isEqualTo("cam1-only-passphrase");
        assertThat(passphrase(p, "publish:live/other")).isEqualTo("server-wide-passphrase");
        assertThat(passphrase(p, "#!::r=live/cam1,m=publish,u=alice")).isEqualTo("alice-own-passphrase");
        assertThat(passphrase(p, "publish:live/cam1:bob:token")).isEqualTo("bob-own-passphrase");
        assertThat(c.print())
                .as("passphrases are never printed")
                .doesNotContain("server-wide-passphrase")
                .doesNotContain("alice-own-passphrase")
                .doesNotContain("bob-own-passphrase")
                .doesNotContain("cam1-only-passphrase")
                .contains("# srt-passphrase is set (not shown)");
    }

    @Test
    void invalidValuesAreNamedWithWhereTheyWereWritten() {
        assertFile(List.of("srt-passphrase = short"), "'srt-passphrase'", "10 to 79 characters", "origin.conf:1");
        assertFile(
                List.of("[stream cam1]", "srt-passphrase = " + "x".repeat(80)),
                "'srt-passphrase'",
                "not 80",
                "origin.conf:2");
        assertFile(List.of("srt-user = alice"), "'srt-user'", "NAME:PASSPHRASE");
        assertFile(List.of("srt-user = al ice:long-enough-passphrase"), "'srt-user'", "user name");
        assertFile(List.of("srt-user = alice:short"), "'srt-user'", "10 to 79");
        assertFile(List.of("srt-latency-ms = 5"), "'srt-latency-ms': '5'", "from 20 to 10000");
        assertFile(List.of("srt-port = 0"), "'srt-port': '0'", "port number");
        assertThatThrownBy(() -> OriginConfigFile.parse("origin.conf", List.of("[stream cam1]", "srt-user = a:b")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'srt-user' cannot be set per stream");
    }

    private static void assertFile(List<String> lines, String... fragments) {
        assertThatThrownBy(() -> OriginConfig.assemble(OriginConfigFile.parse("origin.conf", lines), List.of()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> {
                    for (String f : fragments) {
                        assertThat(e.getMessage()).contains(f);
                    }
                });
    }

    private static String passphrase(StreamPassphrases p, String streamId) {
        var decision = p.authorize(StreamId.parse(streamId), PEER);
        assertThat(decision.accepted()).isTrue();
        return decision.passphrase();
    }
}
