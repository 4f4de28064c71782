package io.tern.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.option.Option;
import io.tern.server.origin.config.OriginConfig;
import io.tern.server.origin.config.OriginOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code tern origin}'s command line: every option of the table, -c, --help, --print-config, exit codes. */
class OriginCommandTest {
    private final List<OriginConfig> launched = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        CommandLine line = TernCommand.commandLine(
                config -> {
                    throw new AssertionError("the relay must not start");
                },
                config -> {
                    launched.add(config);
                    return 0;
                },
                message -> {});
        line.setOut(new PrintWriter(out));
        line.setErr(new PrintWriter(err));
        return line.execute(args);
    }

    @Test
    void helpListsEveryOptionWithItsDefault() {
        assertThat(run("origin", "--help")).isZero();
        for (Option<?> option : OriginOptions.all()) {
            assertThat(out.toString()).contains("--" + option.name());
        }
        assertThat(out.toString())
                .contains("Default: 1935")
                .contains("-c=<file>")
                .contains("--print-config");
        assertThat(launched).isEmpty();
    }

    @Test
    void optionsFromTheCommandLineAndTheFileReachTheLauncher() throws Exception {
        Path file = dir.resolve("origin.conf");
        Files.writeString(file, "http-port = 9000\nrecord-dir = /srv/rec\n[stream cam1]\nrecord = off\n");
        assertThat(run("origin", "-c", file.toString(), "--rtmp-port", "1999", "--no-publish-auth", "--record=on"))
                .isZero();
        OriginConfig config = launched.get(0);
        assertThat(config.get(OriginOptions.RTMP_PORT)).isEqualTo(1999);
        assertThat(config.get(OriginOptions.HTTP_PORT)).isEqualTo(9000);
        assertThat(config.get(OriginOptions.NO_PUBLISH_AUTH)).isTrue();
        assertThat(config.stream("cam1").record()).isFalse();
        assertThat(config.stream("cam2").record()).isTrue();
    }

    @Test
    void printConfigPrintsTheFileSyntaxAndStartsNothing() {
        assertThat(run("origin", "--part-target-ms", "250", "--print-config")).isZero();
        assertThat(out.toString()).contains("part-target-ms = 250\n").contains("rtmp-port = 1935\n");
        assertThat(launched).isEmpty();
    }

    @Test
    void anInvalidValueIsOneLineAndExitCode2() {
        assertThat(run("origin", "--http-port", "0")).isEqualTo(2);
        assertThat(err.toString().trim())
                .isEqualTo("tern origin: Invalid value for option 'http-port': '0' (must be a port number from 1 to"
                        + " 65535) on the command line");
        assertThat(run("origin", "--no-such-option")).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option: '--no-such-option'");
        assertThat(launched).isEmpty();
    }
}
