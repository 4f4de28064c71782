package io.tern.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.config.AuthMode;
import io.tern.server.config.CoturnOptions;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.Verbosity;
import io.tern.server.option.Option;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TurnCommandTest {
    private final List<String> warnings = new ArrayList<>();
    private final List<TurnServerConfig> launched = new ArrayList<>();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args) {
        final CommandLine commandLine = TernCommand.commandLine(
                config -> {
                    launched.add(config);
                    return 0;
                },
                warnings::add);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void launcherGetsTheValidatedConfig() {
        assertThat(run(
                        "turn",
                        "-p",
                        "3479",
                        "--realm=example.org",
                        "-u",
                        "alice:pw",
                        "-a",
                        "-vf",
                        "--stale-nonce",
                        "--listening-ip",
                        "127.0.0.1",
                        "-L",
                        "::1"))
                .isZero();
        assertThat(launched).singleElement().satisfies(config -> {
            assertThat(config.listeningPort()).isEqualTo(3479);
            assertThat(config.realm()).isEqualTo("example.org");
            assertThat(config.authMode()).isEqualTo(AuthMode.LONG_TERM);
            assertThat(config.verbosity()).isEqualTo(Verbosity.NORMAL);
            assertThat(config.fingerprint()).isTrue();
            assertThat(config.staleNonceSeconds()).isEqualTo(600);
            assertThat(config.listeningIps()).hasSize(2);
        });
    }

    @Test
    void commandLineOverridesTheFile() {
        assertThat(run(
                        "turn",
                        "-c",
                        resource("turnserver-example.conf").toString(),
                        "--listening-port",
                        "4000",
                        "--fingerprint=off",
                        "--relay-ip",
                        "127.0.0.2",
                        "-r",
                        "south.gov"))
                .isZero();
        final TurnServerConfig config = launched.get(0);
        assertThat(config.listeningPort()).isEqualTo(4000);
        assertThat(config.fingerprint()).isFalse();
        assertThat(config.relayIps()).extracting(ip -> ip.getHostAddress()).containsExactly("127.0.0.2");
        assertThat(config.realm()).isEqualTo("south.gov");
        // untouched file values survive
        assertThat(config.minPort()).isEqualTo(50000);
        assertThat(config.userQuota()).isEqualTo(12);
    }

    @Test
    void minusNIgnoresTheConfigFile() {
        assertThat(run("turn", "-n", "-c", resource("turnserver-example.conf").toString()))
                .isZero();
        assertThat(launched.get(0).listeningPort()).isEqualTo(3478);
    }

    @Test
    void invalidValueExitsWithUsageCodeAndNamesOptionAndValue() {
        assertThat(run("turn", "--min-port", "70000")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option 'min-port': '70000' (must be 1-65535)");
        assertThat(launched).isEmpty();
    }

    @Test
    void tcpBoundsAndStrictChannelNumbersFromTheCommandLine() {
        assertThat(run(
                        "turn",
                        "--max-tcp-connections=2000",
                        "--max-tcp-connections-per-ip",
                        "500",
                        "--tcp-idle-timeout=60",
                        "--tcp-message-timeout=20",
                        "--tls-handshake-timeout=15",
                        "--tcp-write-low-water-mark=1000",
                        "--tcp-write-high-water-mark=2000",
                        "--strict-channel-numbers"))
                .isZero();
        assertThat(launched).singleElement().satisfies(config -> {
            assertThat(config.maxTcpConnections()).isEqualTo(2000);
            assertThat(config.maxTcpConnectionsPerIp()).isEqualTo(500);
            assertThat(config.tcpIdleTimeoutSeconds()).isEqualTo(60);
            assertThat(config.tcpMessageTimeoutSeconds()).isEqualTo(20);
            assertThat(config.tlsHandshakeTimeoutSeconds()).isEqualTo(15);
            assertThat(config.tcpWriteLowWaterMarkBytes()).isEqualTo(1000);
            assertThat(config.tcpWriteHighWaterMarkBytes()).isEqualTo(2000);
            assertThat(config.strictChannelNumbers()).isTrue();
        });
    }

    @Test
    void invalidTcpBoundExitsWithUsageCodeAndNamesOptionAndValue() {
        assertThat(run("turn", "--max-tcp-connections-per-ip=0")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option 'max-tcp-connections-per-ip': '0' (must be a whole number >= 1)");
        assertThat(launched).isEmpty();
    }

    @Test
    void unknownCommandLineOptionIsRejected() {
        assertThat(run("turn", "--listning-port=3478")).isEqualTo(2);
        assertThat(err.toString()).contains("--listning-port");
        assertThat(launched).isEmpty();
    }

    @Test
    void unsupportedCommandLineOptionIsWarnedAboutOnce() {
        assertThat(run("turn", "--cli-password=x", "--cli-password", "y", "-o")).isZero();
        assertThat(warnings)
                .containsExactly(
                        "coturn option 'cli-password' is not supported by Tern and is ignored",
                        "coturn option 'daemon' is not supported by Tern and is ignored");
    }

    @Test
    void printConfigPrintsInsteadOfLaunching() {
        assertThat(run("turn", "--print-config", "--use-auth-secret")).isZero();
        assertThat(launched).isEmpty();
        assertThat(out.toString())
                .contains("listening-port=3478")
                .contains("use-auth-secret")
                .containsPattern("static-auth-secret: generated, shown once: [0-9a-f]{64}");
    }

    @Test
    void turnHelpListsEverySupportedOptionWithItsDefault() {
        assertThat(run("turn", "--help")).isZero();
        final String help = out.toString();
        for (final Option<?> option : CoturnOptions.withStatus(Option.Status.SUPPORTED)) {
            assertThat(help).contains("--" + option.name());
            assertThat(option.helpWithDefault()).contains("Default:");
        }
        assertThat(help)
                .contains("-p, --listening-port=<port>")
                .contains("Default: 3478")
                .contains("--min-port")
                .contains("--static-auth-secret")
                .contains("(-v) Moderate verbose")
                .contains("-c=<file>")
                .contains("--print-config")
                .contains("cli-password");
    }

    @Test
    void ternHelpAndVersion() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("turn").contains("--version");
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).containsPattern("tern \\S+");
    }

    @Test
    void ternWithoutCommandIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Usage: tern");
    }

    private static Path resource(final String name) {
        try {
            return Path.of(TurnCommandTest.class
                    .getResource("/io/tern/server/config/" + name)
                    .toURI());
        } catch (final URISyntaxException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
