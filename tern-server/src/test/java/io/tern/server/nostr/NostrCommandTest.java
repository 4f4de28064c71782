package io.tern.server.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.engine.AuthMode;
import io.tern.nostr.engine.NostrConfig;
import io.tern.server.config.CoturnOptions;
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

/** {@code tern nostr}'s options: the defaults, the file and the command line, and refusals that name what is wrong. */
class NostrCommandTest {
    @TempDir
    Path dir;

    private final List<NostrSettings> launched = new ArrayList<>();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine line = NostrCommand.commandLine(settings -> {
            launched.add(settings);
            return 0;
        });
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Test
    void withoutOptionsTheRelayRunsOnPort7777WithItsEmbeddedDefaults() {
        assertThat(run()).isZero();
        NostrSettings settings = launched.get(0);
        assertThat(settings.listenAddress().getPort()).isEqualTo(7777);
        assertThat(settings.listenAddress().getAddress().isAnyLocalAddress()).isTrue();
        assertThat(settings.storeConfig().path())
                .isEqualTo(Path.of("tern-nostr.db").toAbsolutePath());
        assertThat(settings.storeConfig().synchronousFull()).isTrue();
        assertThat(settings.threads()).isEqualTo(1);
        assertThat(settings.prometheus()).isFalse();
        assertThat(settings.prometheusAddress().getPort())
                .isEqualTo(9643)
                .as("TURN's and the origin's metrics ports, so the three can run on one host")
                .isNotIn(CoturnOptions.PROMETHEUS_PORT.defaultValue(), OriginOptions.PROMETHEUS_PORT.defaultValue());
        NostrConfig config = settings.relayConfig();
        NostrConfig defaults = NostrConfig.defaults();
        assertThat(config.authMode()).isEqualTo(AuthMode.NONE);
        assertThat(config.maxMessageBytes()).isEqualTo(defaults.maxMessageBytes());
        assertThat(config.eventsPerSecondPerIp()).isEqualTo(100);
        assertThat(config.eventBurstPerIp()).isEqualTo(1000);
    }

    @Test
    void theFileSetsOptionsAndTheCommandLineOverridesIt() throws Exception {
        Path file = dir.resolve("nostr.conf");
        Files.writeString(file, """
                # a relay for the rendezvous
                port=8000
                auth write
                max-subscriptions = 50
                events-per-second-per-ip=2.5
                nip45=off
                prometheus
                public-url=wss://relay.example/
                """);
        assertThat(run("-c", file.toString(), "--port", "9000", "--max-filters", "7", "--db-sync", "normal"))
                .isZero();
        NostrSettings settings = launched.get(0);
        NostrConfig config = settings.relayConfig();
        assertThat(settings.listenAddress().getPort()).isEqualTo(9000);
        assertThat(config.authMode()).isEqualTo(AuthMode.WRITE);
        assertThat(config.maxSubscriptions()).isEqualTo(50);
        assertThat(config.maxFilters()).isEqualTo(7);
        assertThat(config.eventsPerSecondPerIp()).isEqualTo(2.5);
        assertThat(config.nip45()).isFalse();
        assertThat(config.publicUrl()).isEqualTo("wss://relay.example/");
        assertThat(settings.prometheus()).isTrue();
        assertThat(settings.storeConfig().synchronousFull()).isFalse();
    }

    @Test
    void printConfigReadsBackAsTheSameSettings() throws Exception {
        StringWriter out = new StringWriter();
        CommandLine line = NostrCommand.commandLine(settings -> {
            throw new AssertionError("--print-config starts nothing");
        });
        line.setOut(new PrintWriter(out, true));
        assertThat(line.execute(
                        "--print-config",
                        "--auth=write",
                        "--name=a relay",
                        "--events-per-second-per-ip=2.5",
                        "--nip45=off",
                        "--db-sync=normal"))
                .isZero();
        assertThat(out.toString())
                .contains("auth = write\n", "name = a relay\n", "events-per-second-per-ip = 2.5\n", "nip45 = off\n")
                .contains("# public-url: none");
        Path file = dir.resolve("printed.conf");
        Files.writeString(file, out.toString());
        assertThat(run("-c", file.toString())).isZero();
        NostrConfig config = launched.get(0).relayConfig();
        assertThat(config.authMode()).isEqualTo(AuthMode.WRITE);
        assertThat(config.name()).isEqualTo("a relay");
        assertThat(config.eventsPerSecondPerIp()).isEqualTo(2.5);
        assertThat(config.nip45()).isFalse();
        assertThat(launched.get(0).storeConfig().synchronousFull()).isFalse();
    }

    @Test
    void everyLimitOfTheRelayIsAnOption() {
        for (String limit : List.of(
                "max-message-bytes",
                "max-subscriptions",
                "max-filters",
                "max-limit",
                "default-limit",
                "max-subid-length",
                "max-event-tags",
                "max-future-seconds",
                "max-past-seconds",
                "max-ephemeral-age-seconds",
                "auth-window-seconds",
                "events-per-second-per-ip",
                "event-burst-per-ip",
                "events-per-second-per-pubkey",
                "event-burst-per-pubkey",
                "reqs-per-second-per-ip",
                "req-burst-per-ip",
                "rate-limit-keys",
                "max-connections-per-ip",
                "max-outbound-bytes",
                "query-timeout-ms",
                "purge-interval-seconds",
                "nip09",
                "nip40",
                "nip45",
                "auth",
                "public-url",
                "port",
                "listen",
                "db",
                "threads",
                "prometheus",
                "prometheus-port")) {
            assertThat(NostrOptions.find(limit)).as(limit).isNotNull();
        }
        StringWriter help = new StringWriter();
        CommandLine line = NostrCommand.commandLine(settings -> 0);
        line.usage(new PrintWriter(help));
        for (io.tern.server.option.Option<?> row : NostrOptions.all()) {
            assertThat(help.toString()).contains("--" + row.name());
        }
    }

    @Test
    void invalidValuesStopStartUpNamingTheOptionTheValueAndWhereItWasWritten() throws Exception {
        assertThat(run("--max-message-bytes", "12")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option 'max-message-bytes': '12' (expected >= 256) on the command line");
        assertThat(run("--port", "seventy")).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option 'port': 'seventy'");
        assertThat(run("--auth", "sometimes")).isEqualTo(2);
        assertThat(err.toString()).contains("'auth': 'sometimes' (must be none, write, read or all)");
        assertThat(run("--public-url", "http://relay.example/")).isEqualTo(2);
        assertThat(err.toString()).contains("'public-url': 'http://relay.example/'");
        Path file = dir.resolve("bad.conf");
        Files.writeString(file, "max-limit=10\ndefault-limit=20\n");
        assertThat(run("-c", file.toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains("'default-limit': '20' (expected at most max-limit (10)) in " + file + ":2");
        Files.writeString(file, "maximum-fun=1\n");
        assertThat(run("-c", file.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("Unknown option 'maximum-fun' in " + file + ":1");
        assertThat(run("--events-per-second-per-ip", "-1")).isEqualTo(2);
        assertThat(launched).isEmpty();
    }

    @Test
    void aPostgresqlDbIsSharedStorageWithItsPasswordFromAFileOrTheUrl() throws Exception {
        Path secret = dir.resolve("pg.secret");
        Files.writeString(secret, "s3cret\n");
        assertThat(run("--db", "postgresql://relay@db.example:6543/nostr", "--db-password-file", secret.toString()))
                .isZero();
        NostrSettings settings = launched.get(0);
        assertThat(settings.postgres()).isTrue();
        assertThat(settings.postgresConfig().jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/nostr");
        assertThat(settings.postgresConfig().user()).isEqualTo("relay");
        assertThat(settings.postgresConfig().password()).isEqualTo("s3cret");
        assertThat(settings.databaseName()).isEqualTo("postgresql://relay@db.example:6543/nostr");
        assertThat(run("--db", "postgresql://relay:inline@db.example/nostr")).isZero();
        assertThat(launched.get(1).postgresConfig().password()).isEqualTo("inline");
        assertThat(launched.get(1).postgresConfig().port()).isEqualTo(5432);
        assertThat(run()).isZero();
        assertThat(launched.get(2).postgres()).as("SQLite stays the default").isFalse();
    }

    @Test
    void aBadDatabaseOptionIsRefusedNamingTheOptionAndTheValueButNeverThePassword() throws Exception {
        assertThat(run("--db", "postgresql://relay:hunter2@db.example:99999/nostr"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option 'db': 'postgresql://relay:***@db.example:99999/nostr' (")
                .contains("on the command line")
                .doesNotContain("hunter2");
        assertThat(run("--db", "postgresql://db.example/nostr")).isEqualTo(2);
        assertThat(err.toString()).contains("'db': 'postgresql://db.example/nostr' (no user;");
        Path secret = dir.resolve("pg.secret");
        Files.writeString(secret, "x\n");
        assertThat(run("--db", "postgresql://relay:inline@db.example/nostr", "--db-password-file", secret.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("a password file is given too").doesNotContain("inline");
        assertThat(run("--db", "postgresql://relay@db.example/nostr", "--db-password-file", "/nonexistent/pg"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("Invalid value for option 'db-password-file': '/nonexistent/pg' (cannot read it");
        Files.writeString(secret, "\n");
        assertThat(run("--db", "postgresql://relay@db.example/nostr", "--db-password-file", secret.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("(its first line, the password, is empty)");
        assertThat(run("--db", dir.resolve("relay.db").toString(), "--db-password-file", secret.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("'db-password-file': '" + secret + "' (only for a postgresql:// --db)");
        assertThat(launched).isEmpty();
    }
}
