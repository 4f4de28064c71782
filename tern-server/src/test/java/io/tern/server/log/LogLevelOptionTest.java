package io.tern.server.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.server.cli.TernCommand;
import io.tern.server.nostr.NostrCommand;
import io.tern.server.origin.config.LogLevel;
import io.tern.server.origin.config.OriginOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --log-level} reaches each server's launcher, and the installed handler honours it. */
class LogLevelOptionTest {
    private final List<Object> launched = new ArrayList<>();
    private final StringWriter err = new StringWriter();
    private Handler[] savedHandlers;
    private Level savedLevel;

    @BeforeEach
    void saveRootLogger() {
        Logger root = Logger.getLogger("");
        savedHandlers = root.getHandlers();
        savedLevel = root.getLevel();
    }

    @AfterEach
    void restoreRootLogger() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        for (Handler handler : savedHandlers) {
            root.addHandler(handler);
        }
        root.setLevel(savedLevel);
        Logs.request(null);
    }

    private int tern(String... args) {
        CommandLine line = TernCommand.commandLine(
                config -> {
                    launched.add(Logs.requested());
                    return 0;
                },
                config -> {
                    launched.add(config.get(OriginOptions.LOG_LEVEL));
                    return 0;
                },
                message -> {});
        line.setErr(new PrintWriter(err));
        return line.execute(args);
    }

    @Test
    void turnHandsItsLevelToTheLauncher() {
        assertThat(tern("turn", "--log-level", "debug")).isZero();
        assertThat(tern("turn")).isZero();
        assertThat(launched).containsExactly(Optional.of(Level.FINE), Optional.empty());
    }

    @Test
    void nostrHandsItsLevelToTheLauncher() {
        CommandLine line = NostrCommand.commandLine(settings -> {
            launched.add(Logs.requested());
            return 0;
        });
        assertThat(line.execute("--log-level", "WARNING")).isZero();
        assertThat(launched).containsExactly(Optional.of(Level.WARNING));
    }

    @Test
    void originReadsItsOwnLogLevelOption() {
        assertThat(tern("origin", "--log-level", "debug")).isZero();
        assertThat(launched).containsExactly(LogLevel.DEBUG);
    }

    @Test
    void anUnknownLevelIsAUsageError() {
        assertThat(tern("turn", "--log-level", "loud")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("'loud' is not a log level (expected one of warning, info, debug)");
        assertThat(launched).isEmpty();
    }

    @Test
    void theInstalledHandlerWritesOneLinePerEventAtTheLevel() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StreamHandler handler = new StreamHandler(bytes, new java.util.logging.SimpleFormatter());
        Logs.install(Level.WARNING, handler);
        System.Logger log = System.getLogger("tern.origin");
        log.log(System.Logger.Level.INFO, "not shown");
        log.log(System.Logger.Level.WARNING, "shown");
        handler.flush();
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z WARN  origin shown");
        assertThat(Logger.getLogger("").getHandlers()).containsExactly(handler);
    }
}
