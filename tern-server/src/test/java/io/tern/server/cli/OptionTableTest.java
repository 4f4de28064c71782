package io.tern.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.server.config.CoturnConfigReader;
import io.tern.server.config.CoturnOptions;
import io.tern.server.config.TurnServerConfig;
import io.tern.server.config.TurnServerConfigAssembler;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.server.option.Option.Status;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Walks the option table: every supported row parses from a file and from the command line alike,
 * changes the configuration, prints in {@code --print-config}, and reads back from that print to
 * the same configuration. A new row fails here until it has an example below.
 */
class OptionTableTest {
    private static final String CERT = resource("turn_server_cert.pem");
    private static final String PKEY = resource("turn_server_pkey.pem");
    private static final String KEY = "bc807ee29df3c9ffa736523fb2c4e8ee";

    /**
     * For each row, config-file lines that set it to something other than its default: the last
     * line is the row's own, the others are what it needs besides.
     */
    private static final Map<String, List<String>> EXAMPLES = examples(
            List.of("listening-port=3479"),
            List.of("cert=" + CERT, "pkey=" + PKEY, "tls-listening-port=5350"),
            List.of("listening-ip=192.0.2.7", "listening-ip=2001:db8::7"),
            List.of("relay-ip=192.0.2.8", "relay-ip=2001:db8::8"),
            List.of("external-ip=203.0.113.1/192.0.2.8", "external-ip=203.0.113.2/192.0.2.9"),
            List.of("min-port=50000"),
            List.of("max-port=60000"),
            List.of("relay-threads=4"),
            List.of("udp-io=netty"),
            List.of("no-udp"),
            List.of("no-tcp"),
            List.of("no-tls"),
            List.of("no-dtls"),
            List.of("max-tcp-connections=500"),
            List.of("max-tcp-connections-per-ip=8"),
            List.of("tcp-idle-timeout=5"),
            List.of("tcp-message-timeout=3"),
            List.of("tls-handshake-timeout=4"),
            List.of("tcp-write-low-water-mark=1000"),
            List.of("tcp-write-high-water-mark=300000"),
            List.of("realm=example.org"),
            List.of("user=alice:0x" + KEY, "lt-cred-mech"),
            List.of("no-auth"),
            List.of("user=alice:wonderland", "user=bob:0x" + KEY),
            List.of("use-auth-secret"),
            List.of("static-auth-secret=north", "static-auth-secret=south"),
            List.of("rest-api-separator=-"),
            List.of("user-quota=3"),
            List.of("total-quota=30"),
            List.of("max-allocations=500"),
            List.of("unauthenticated-rate=500"),
            List.of("max-allocate-lifetime=300"),
            List.of("channel-lifetime=300"),
            List.of("permission-lifetime=120"),
            List.of("stale-nonce=0"),
            List.of("stateless-nonce-secret=fleet-wide-secret"),
            List.of("alternate-server=192.0.2.30", "alternate-server=[2001:db8::30]:3479"),
            List.of("udp-alternate-server=192.0.2.31:3480"),
            List.of("tcp-alternate-server=2001:db8::32"),
            List.of("tls-alternate-server=192.0.2.33"),
            List.of("drain-on-term"),
            List.of("drain-min-allocations=5"),
            List.of("allowed-peer-ip=10.0.0.1-10.0.0.9", "allowed-peer-ip=fc00::/7"),
            List.of("denied-peer-ip=192.168.0.0/16"),
            List.of("allow-loopback-peers"),
            List.of("no-multicast-peers"),
            List.of("fingerprint"),
            List.of("software-attribute=off"),
            List.of("no-software-attribute"),
            List.of("strict-channel-numbers"),
            List.of("cluster-redis=redis://127.0.0.1:6390/2"),
            List.of("redis-userdb=\"ip=127.0.0.1 dbname=3 port=6390 connect_timeout=30\""),
            List.of("cluster-node-id=relay-7"),
            List.of("cluster-lease-ttl=10"),
            List.of("cluster-redis-fail=closed"),
            List.of("pkey=" + PKEY, "cert=" + CERT),
            List.of("cert=" + CERT, "pkey=" + PKEY),
            List.of("cipher-list=HIGH:!aNULL"),
            List.of("no-tlsv1"),
            List.of("no-tlsv1_1"),
            List.of("no-tlsv1_2"),
            List.of("log-file=/var/tmp/tern.log"),
            List.of("verbose"),
            List.of("Verbose"),
            List.of("pidfile=/run/tern.pid"),
            List.of("prometheus"),
            List.of("prometheus-port=9650"));

    /** Rows whose values --print-config never shows; the test gives them back when reading the print. */
    private static final List<Option<?>> SECRET_ROWS =
            List.of(CoturnOptions.USER, CoturnOptions.STATIC_AUTH_SECRET, CoturnOptions.STATELESS_NONCE_SECRET);

    @TempDir
    Path dir;

    @SafeVarargs
    private static Map<String, List<String>> examples(List<String>... examples) {
        Map<String, List<String>> byRow = new HashMap<>();
        for (List<String> lines : examples) {
            String last = lines.get(lines.size() - 1);
            assertThat(byRow.put(last.split("=", 2)[0], lines)).as(last).isNull();
        }
        return byRow;
    }

    static List<String> supportedRows() {
        return CoturnOptions.withStatus(Status.SUPPORTED).stream()
                .map(Option::name)
                .toList();
    }

    @Test
    void everySupportedRowHasAnExampleAndEveryExampleARow() {
        assertThat(EXAMPLES.keySet()).containsExactlyInAnyOrderElementsOf(supportedRows());
    }

    @Test
    void everyRowIsKnownByEachOfItsNames() {
        for (Option<?> row : CoturnOptions.all()) {
            assertThat(CoturnOptions.find(row.name())).isSameAs(row);
            row.aliases().forEach(alias -> assertThat(CoturnOptions.find(alias)).isSameAs(row));
            assertThat(row.help()).as(row.name()).isNotBlank();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("supportedRows")
    void rowParsesPrintsAndRoundTripsThroughPrintConfig(String name) throws Exception {
        List<String> lines = EXAMPLES.get(name);
        Path file = dir.resolve("example.conf");
        Files.write(file, lines);

        TurnServerConfig expected = assemble(read(file.toString(), lines), List.of());
        TurnServerConfig defaults = assemble(List.of(), List.of());
        assertThat(sameConfig(expected, defaults))
                .as("%s changes the configuration", name)
                .isFalse();

        String fromFile = printConfig("turn", "-c", file.toString(), "--print-config");
        String fromCommandLine = printConfig(commandLine(lines));
        assertThat(withoutGeneratedSecret(fromCommandLine))
                .as("the command line reads %s as the file does", name)
                .isEqualTo(withoutGeneratedSecret(fromFile));
        assertThat(fromFile).as("%s is printed", name).isNotEqualTo(printConfig("turn", "--print-config"));

        List<Occurrence> secrets = read(file.toString(), lines).stream()
                .filter(v -> SECRET_ROWS.contains(v.option()))
                .toList();
        for (Occurrence secret : secrets) {
            assertThat(fromFile).as("%s is redacted", secret.value()).doesNotContain(secret.value());
        }
        TurnServerConfig reread = assemble(read("print", fromFile.lines().toList()), secrets);
        assertThat(sameConfig(reread, expected))
                .as("%s round-trips through --print-config:%n%s", name, fromFile)
                .isTrue();
    }

    private static boolean sameConfig(TurnServerConfig a, TurnServerConfig b) {
        return a.options().equals(b.options())
                && a.authMode() == b.authMode()
                && a.staticUsers().equals(b.staticUsers())
                && a.generatedSecret().isPresent() == b.generatedSecret().isPresent();
    }

    private static TurnServerConfig assemble(List<Occurrence> file, List<Occurrence> commandLine) {
        return new TurnServerConfigAssembler(message -> {}).assemble(file, commandLine);
    }

    private static List<Occurrence> read(String source, List<String> lines) {
        return new CoturnConfigReader(message -> {}).read(source, lines);
    }

    /** {@code name=value} becomes {@code --name=value}, a bare {@code name} {@code --name}. */
    private static String[] commandLine(List<String> lines) {
        List<String> args = new ArrayList<>(List.of("turn", "--print-config"));
        lines.forEach(line -> args.add("--" + line));
        return args.toArray(String[]::new);
    }

    private static String withoutGeneratedSecret(String printed) {
        return printed.lines()
                .filter(line -> !line.contains("static-auth-secret: generated"))
                .collect(Collectors.joining("\n"));
    }

    private static String printConfig(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine commandLine =
                TernCommand.commandLine(config -> fail("--print-config must not start the server"), message -> {});
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        assertThat(commandLine.execute(args))
                .as("%s%n%s", String.join(" ", args), err)
                .isZero();
        return out.toString();
    }

    private static String resource(String name) {
        try {
            return Path.of(OptionTableTest.class
                            .getResource("/io/tern/server/config/" + name)
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
