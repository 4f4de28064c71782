package io.tern.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.origin.auth.PublishTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OriginTokenCommandTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(1_000_000));
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine line = new CommandLine(new OriginTokenCommand(CLOCK));
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(err));
        return line.execute(args);
    }

    @Test
    void printsTheTokenTheOriginAccepts() {
        assertThat(run("cam1", "--expires", "1h", "--secret", "k")).isZero();
        String token = out.toString().trim();
        assertThat(token).isEqualTo(new PublishTokens("k", CLOCK).mint("live", "cam1", 1_003_600));
        assertThat(new PublishTokens("k", CLOCK).verify("live", "cam1", token).allowed())
                .isTrue();
    }

    @Test
    void readsTheSecretFromAFileAndPrintsAUrl(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "  from-file  \nignored\n");
        assertThat(run(
                        "cam1",
                        "--app",
                        "show",
                        "--expires",
                        "@2000000",
                        "--secret-file",
                        file.toString(),
                        "--url",
                        "rtmp://h:1935"))
                .isZero();
        assertThat(out.toString().trim())
                .isEqualTo("rtmp://h:1935/show/cam1?token="
                        + new PublishTokens("from-file", CLOCK).mint("show", "cam1", 2_000_000));
    }

    @Test
    void badInputIsOneLineNamingTheOption() {
        assertThat(run("cam1", "--expires", "soon", "--secret", "k")).isEqualTo(2);
        assertThat(err.toString()).contains("--expires 'soon'");
        assertThat(run("cam1", "--expires", "1h")).isEqualTo(2);
        assertThat(err.toString()).contains("--secret or --secret-file");
        assertThat(OriginTokenCommand.expiry("90s", 10)).isEqualTo(100);
        assertThat(OriginTokenCommand.expiry("3600", 10)).isEqualTo(3610);
        assertThat(OriginTokenCommand.expiry("7d", 0)).isEqualTo(604_800);
        assertThatThrownBy(() -> OriginTokenCommand.expiry("-5m", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
