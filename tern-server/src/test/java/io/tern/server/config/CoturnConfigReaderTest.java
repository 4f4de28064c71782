package io.tern.server.config;

import static io.tern.server.config.ConfigTestSupport.file;
import static io.tern.server.config.ConfigTestSupport.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.config.ConfigTestSupport.RecordingWarnings;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.server.option.Option;
import io.tern.stun.address.IpLiterals;
import io.tern.turn.policy.IpRange;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CoturnConfigReaderTest {
    private final RecordingWarnings warnings = new RecordingWarnings();

    @Test
    void readsEveryFieldOfACoturnStyleConfig() throws Exception {
        final Path conf = resource("turnserver-example.conf");
        final List<Occurrence> values = new CoturnConfigReader(warnings).read(conf);
        final TurnServerConfig config = new TurnServerConfigAssembler(warnings).assemble(values, List.of());

        assertThat(config.listeningPort()).isEqualTo(3479);
        assertThat(config.tlsListeningPort()).isEqualTo(5350);
        assertThat(config.listeningIps())
                .containsExactly(ip("172.17.19.101"), ip("10.207.21.238"), ip("2607:f0d0:1002:51::4"));
        assertThat(config.relayIps()).containsExactly(ip("172.17.19.105"), ip("2607:f0d0:1002:51::5"));
        assertThat(config.externalIps())
                .containsExactly(
                        new ExternalIpMapping(ip("60.70.80.91"), Optional.of(ip("172.17.19.101"))),
                        new ExternalIpMapping(ip("60.70.80.92"), Optional.of(ip("172.17.19.102"))));
        assertThat(config.relayThreads()).isEqualTo(4);
        assertThat(config.minPort()).isEqualTo(50000);
        assertThat(config.maxPort()).isEqualTo(55000);
        assertThat(config.verbosity()).isEqualTo(Verbosity.NORMAL);
        assertThat(config.fingerprint()).isTrue();

        assertThat(config.authMode()).isEqualTo(AuthMode.LONG_TERM);
        assertThat(config.realm()).isEqualTo("north.gov");
        // Users come before realm in the file; like coturn, keys use the final realm.
        assertThat(config.staticUsers())
                .extracting(StaticUser::name)
                .containsExactly("username1", "username2", "ninefingers");
        assertThat(config.staticUsers().get(0).keyHex()).isEqualTo(md5Hex("username1:north.gov:password1"));
        assertThat(config.staticUsers().get(1).keyHex()).isEqualTo(md5Hex("username2:north.gov:password2"));
        // coturn's README: turnadmin -k -u ninefingers -r north.gov -p youhavetoberealistic
        assertThat(config.staticUsers().get(2).keyHex()).isEqualTo("bc807ee29df3c9ffa736523fb2c4e8ee");
        assertThat(config.staticUsers().get(2).keyHex())
                .isEqualTo(md5Hex("ninefingers:north.gov:youhavetoberealistic"));
        assertThat(config.staticAuthSecrets()).isEmpty();
        assertThat(config.generatedSecret()).isEmpty();
        assertThat(config.restApiSeparator()).isEqualTo(':');

        assertThat(config.userQuota()).isEqualTo(12);
        assertThat(config.totalQuota()).isEqualTo(1200);
        assertThat(config.maxAllocations()).isEqualTo(5000);
        assertThat(config.noUdp()).isFalse();
        assertThat(config.noTcp()).isTrue();
        assertThat(config.noTls()).isFalse();
        assertThat(config.noDtls()).isTrue();
        assertThat(config.staleNonceSeconds()).isEqualTo(600);
        assertThat(config.maxAllocateLifetimeSeconds()).isEqualTo(1800);
        assertThat(config.defaultAllocationLifetimeSeconds()).isEqualTo(600);
        assertThat(config.channelLifetimeSeconds()).isEqualTo(300);
        assertThat(config.permissionLifetimeSeconds()).isEqualTo(120);

        assertThat(config.cert()).contains(conf.getParent().resolve("turn_server_cert.pem"));
        assertThat(config.pkey()).contains(conf.getParent().resolve("turn_server_pkey.pem"));
        assertThat(config.tlsEnabled()).isTrue();
        assertThat(config.dtlsEnabled()).isFalse();
        assertThat(config.cipherList()).contains("ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256");
        assertThat(config.noTlsV1()).isTrue();
        assertThat(config.noTlsV1_1()).isTrue();
        assertThat(config.noTlsV1_2()).isFalse();
        assertThat(config.logFile()).contains("/var/tmp/turn.log");
        assertThat(config.noMulticastPeers()).isTrue();
        assertThat(config.allowLoopbackPeers()).isFalse();
        assertThat(config.deniedPeerIps())
                .containsExactly(
                        IpRange.parse("0.0.0.0-0.255.255.255"),
                        IpRange.parse("10.0.0.0-10.255.255.255"),
                        IpRange.parse("172.16.0.0-172.31.255.255"));
        assertThat(config.allowedPeerIps()).containsExactly(IpRange.parse("10.0.0.45-10.0.0.45"));
        assertThat(config.pidFile()).contains(Path.of("/var/run/turnserver.pid"));
        assertThat(config.softwareAttribute()).isEmpty();
        assertThat(config.prometheus()).isTrue();
        assertThat(config.prometheusPort()).isEqualTo(9642);

        assertThat(warnings.messages)
                .containsExactly(
                        "coturn option 'cli-password' is not supported by Tern and is ignored",
                        "coturn option 'no-rfc5780' is not supported by Tern and is ignored");
    }

    @Test
    void debianDefaultConfigParses() {
        // Installed by the coturn package (CI installs coturn); only the uncommented options count.
        final Path debian = Path.of("/etc/turnserver.conf");
        assertThat(Files.isReadable(debian))
                .as("coturn's /etc/turnserver.conf must be installed")
                .isTrue();

        final List<Occurrence> values = new CoturnConfigReader(warnings).read(debian);
        final TurnServerConfig config = new TurnServerConfigAssembler(warnings).assemble(values, List.of());

        assertThat(config.listeningPort()).isEqualTo(CoturnOptions.LISTENING_PORT.defaultValue());
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.generatedSecret()).isPresent();
        assertThat(warnings.messages).allMatch(message -> message.startsWith("coturn option '"));
    }

    @Test
    void separatorsAreSpaceTabOrEqualsInAnyRun() {
        final List<Occurrence> values =
                file(warnings, "realm=a", "realm b", "realm \t= c", "realm==d", "\t  realm=e  \t", "realm=f\r");
        assertThat(values).extracting(Occurrence::value).containsExactly("a", "b", "c", "d", "e", "f");
    }

    @Test
    void commentsAreWholeLineOnlyAsInCoturn() {
        final List<Occurrence> values =
                file(warnings, "# comment", "   # indented comment", "", "   ", "realm=north.gov # not a comment");
        assertThat(values).hasSize(1);
        assertThat(values.get(0).value()).isEqualTo("north.gov # not a comment");
        assertThat(values.get(0).source()).isEqualTo(ConfigSource.file("test.conf", 5));
    }

    @Test
    void bareNameIsAFlagWithEmptyValue() {
        assertThat(file(warnings, "fingerprint").get(0).value()).isEmpty();
    }

    @Test
    void quotesAroundTheValueAreRemoved() {
        assertThat(file(warnings, "pidfile=\"/var/run/turnserver.pid\"  ")
                        .get(0)
                        .value())
                .isEqualTo("/var/run/turnserver.pid");
        assertThat(file(warnings, "cipher-list=\"DEFAULT").get(0).value()).isEqualTo("DEFAULT");
    }

    @Test
    void leadingDoubleDashIsTolerated() {
        final Occurrence value = file(warnings, "--listening-port=3479").get(0);
        assertThat(value.name()).isEqualTo("listening-port");
        assertThat(value.value()).isEqualTo("3479");
    }

    @Test
    void repeatedOptionsAccumulateInOrder() {
        final TurnServerConfig config = new TurnServerConfigAssembler(warnings)
                .assemble(
                        file(
                                warnings,
                                "static-auth-secret=one",
                                "static-auth-secret=two",
                                "listening-ip=127.0.0.1",
                                "listening-ip=::1"),
                        List.of());
        assertThat(config.staticAuthSecrets()).containsExactly("one", "two");
        assertThat(config.listeningIps()).containsExactly(ip("127.0.0.1"), ip("::1"));
    }

    @Test
    void semicolonAtEndOfLineIsWarnedAboutLikeCoturn() {
        file(warnings, "realm=north.gov;");
        assertThat(warnings.messages)
                .singleElement()
                .asString()
                .contains("semicolon")
                .contains("test.conf:1");
    }

    @Test
    void unknownOptionIsAnErrorNamingItAndTheLine() {
        assertThatThrownBy(() -> file(warnings, "# x", "listning-port=3478"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Unknown option 'listning-port' in test.conf:2");
    }

    @Test
    void optionNamesAreCaseSensitive() {
        assertThat(file(warnings, "Verbose").get(0).name()).isEqualTo("Verbose");
        assertThatThrownBy(() -> file(warnings, "VERBOSE"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'VERBOSE'");
    }

    @Test
    void missingFileIsAConfigException() {
        assertThatThrownBy(() -> new CoturnConfigReader(warnings).read(Path.of("/nonexistent/turnserver.conf")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("/nonexistent/turnserver.conf");
    }

    @Property(tries = 1000)
    void readerThrowsNothingButConfigException(@ForAll("lines") final List<String> lines) {
        try {
            new CoturnConfigReader(message -> {}).read("fuzz.conf", lines);
        } catch (final ConfigException expected) {
            assertThat(expected.getMessage()).contains("fuzz.conf:");
        }
    }

    @Property(tries = 1000)
    void assemblerThrowsNothingButConfigException(@ForAll("lines") final List<String> lines) {
        final List<Occurrence> values;
        try {
            values = new CoturnConfigReader(message -> {}).read("fuzz.conf", lines);
        } catch (final ConfigException expected) {
            return;
        }
        try {
            new TurnServerConfigAssembler(message -> {}).assemble(values, List.of());
        } catch (final ConfigException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<List<String>> lines() {
        final Arbitrary<String> names = Arbitraries.oneOf(
                Arbitraries.of(CoturnOptions.all()).map(Option::name),
                Arbitraries.strings().ofMaxLength(12));
        final Arbitrary<String> separators = Arbitraries.of("=", " ", "\t", " = ", "", "==", "\"");
        final Arbitrary<String> values = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withChars("0123456789.:-/abcdefx\"# ").ofMaxLength(40),
                Arbitraries.of(
                        "",
                        "0",
                        "-1",
                        "65536",
                        "on",
                        "off",
                        "1.2.3.4",
                        "::1",
                        "1.2.3.4-1.2.3.1",
                        "10.0.0.0/33",
                        "user:0x12",
                        "a:b",
                        "0x",
                        "99999999999"));
        final Arbitrary<String> structured = net.jqwik.api.Combinators.combine(
                        Arbitraries.of("", " ", "\t", "--", "#"), names, separators, values)
                .as((prefix, name, separator, value) -> prefix + name + separator + value);
        return Arbitraries.oneOf(structured, Arbitraries.strings().ofMaxLength(60))
                .list()
                .ofMaxSize(8);
    }

    private static InetAddress ip(final String literal) {
        return IpLiterals.parse(literal);
    }

    private static String md5Hex(final String text) throws Exception {
        return HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("MD5")
                        .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
