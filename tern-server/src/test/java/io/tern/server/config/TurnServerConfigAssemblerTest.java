package io.tern.server.config;

import static io.tern.server.config.ConfigTestSupport.cli;
import static io.tern.server.config.ConfigTestSupport.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.server.config.ConfigTestSupport.RecordingWarnings;
import io.tern.server.option.ConfigException;
import io.tern.server.option.ConfigSource;
import io.tern.server.option.Occurrence;
import io.tern.stun.address.IpLiterals;
import io.tern.stun.address.TransportAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TurnServerConfigAssemblerTest {
    private final RecordingWarnings warnings = new RecordingWarnings();
    private final TurnServerConfigAssembler assembler = new TurnServerConfigAssembler(warnings);

    @Test
    void defaults() {
        final TurnServerConfig config = assembler.assemble(List.of(), List.of());
        assertThat(config.listeningPort()).isEqualTo(3478);
        assertThat(config.tlsListeningPort()).isEqualTo(5349);
        // None given: the server listens on '::' where the host has IPv6, else on 0.0.0.0 (AddressPlan).
        assertThat(config.listeningIps()).isEmpty();
        assertThat(config.relayIps()).isEmpty();
        assertThat(config.minPort()).isEqualTo(49152);
        assertThat(config.maxPort()).isEqualTo(65535);
        assertThat(config.realm()).isEqualTo("tern");
        assertThat(config.defaultAllocationLifetimeSeconds()).isEqualTo(600);
        assertThat(config.maxAllocateLifetimeSeconds()).isEqualTo(3600);
        assertThat(config.permissionLifetimeSeconds()).isEqualTo(300);
        assertThat(config.channelLifetimeSeconds()).isEqualTo(600);
        assertThat(config.staleNonceSeconds()).isEqualTo(600);
        assertThat(config.userQuota()).isZero();
        assertThat(config.totalQuota()).isZero();
        assertThat(config.maxAllocations()).isEqualTo(100_000);
        assertThat(config.unauthenticatedRate()).isEqualTo(50);
        assertThat(config.relayThreads()).isEqualTo(1);
        assertThat(config.restApiSeparator()).isEqualTo(':');
        assertThat(config.softwareAttribute()).contains("Tern " + TernVersion.version());
        assertThat(config.prometheus()).isFalse();
        assertThat(config.prometheusPort()).isEqualTo(9641);
        assertThat(config.tlsEnabled()).isFalse();
        assertThat(config.verbosity()).isEqualTo(Verbosity.NONE);
        assertThat(config.maxTcpConnections()).isEqualTo(10_000);
        assertThat(config.maxTcpConnectionsPerIp()).isEqualTo(64);
        assertThat(config.tcpIdleTimeoutSeconds()).isEqualTo(30);
        assertThat(config.tcpMessageTimeoutSeconds()).isEqualTo(10);
        assertThat(config.tlsHandshakeTimeoutSeconds()).isEqualTo(10);
        assertThat(config.tcpWriteLowWaterMarkBytes()).isEqualTo(64 * 1024);
        assertThat(config.tcpWriteHighWaterMarkBytes()).isEqualTo(256 * 1024);
        assertThat(config.strictChannelNumbers()).isFalse();
        // No auth option at all: REST API with a generated secret.
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.generatedSecret()).get().asString().matches("[0-9a-f]{64}");
        assertThat(config.restApiSecrets())
                .containsExactly(config.generatedSecret().get());
        assertThat(warnings.messages).isEmpty();
    }

    @Test
    void generatedSecretIsFreshEachTime() {
        assertThat(assembler.assemble(List.of(), List.of()).generatedSecret())
                .isNotEqualTo(assembler.assemble(List.of(), List.of()).generatedSecret());
    }

    @Test
    void useAuthSecretWithoutStaticSecretGeneratesOne() {
        final TurnServerConfig config = assembler.assemble(List.of(), cli("use-auth-secret", ""));
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.generatedSecret()).isPresent();
    }

    @Test
    void staticAuthSecretImpliesUseAuthSecretAndNoGeneratedSecret() {
        final TurnServerConfig config =
                assembler.assemble(List.of(), cli("static-auth-secret", "north", "static-auth-secret", "south"));
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.staticAuthSecrets()).containsExactly("north", "south");
        assertThat(config.generatedSecret()).isEmpty();
        assertThat(config.restApiSecrets()).containsExactly("north", "south");
    }

    @Test
    void ltCredMechAndUseAuthSecretTogetherWarnAndTheSecretWinsLikeCoturn() {
        final TurnServerConfig config = assembler.assemble(
                List.of(), cli("lt-cred-mech", "", "use-auth-secret", "", "static-auth-secret", "s", "user", "a:b"));
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.staticUsers()).isEmpty();
        assertThat(warnings.messages).anyMatch(m -> m.contains("lt-cred-mech and use-auth-secret"));
        assertThat(warnings.messages).anyMatch(m -> m.contains("'user' account(s) ignored"));
    }

    @Test
    void usersWithoutLtCredMechTurnItOnWithAWarning() {
        final TurnServerConfig config = assembler.assemble(List.of(), cli("user", "alice:secret"));
        assertThat(config.authMode()).isEqualTo(AuthMode.LONG_TERM);
        assertThat(warnings.messages)
                .containsExactly("'user' accounts given without 'lt-cred-mech': turning lt-cred-mech on");
    }

    @Test
    void noAuthIsAnonymousWithAWarning() {
        final TurnServerConfig config = assembler.assemble(List.of(), cli("no-auth", ""));
        assertThat(config.authMode()).isEqualTo(AuthMode.NONE);
        assertThat(config.generatedSecret()).isEmpty();
        assertThat(warnings.messages).anyMatch(m -> m.contains("open relay"));
    }

    @Test
    void noAuthWithLtCredMechIsAnError() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "no-auth"), cli("lt-cred-mech", "")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Options 'no-auth' in test.conf:1 and 'lt-cred-mech' on the command line "
                        + "cannot be used together");
    }

    @Test
    void ltCredMechWithoutUsersIsAnError() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "lt-cred-mech"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'lt-cred-mech' in test.conf:1")
                .hasMessageContaining("at least one 'user'");
    }

    @Test
    void ltCredMechWithARedisUserdbNeedsNoConfiguredUser() {
        final TurnServerConfig config =
                assembler.assemble(List.of(), cli("lt-cred-mech", "", "redis-userdb", "ip=127.0.0.1 dbname=1"));
        assertThat(config.authMode()).isEqualTo(AuthMode.LONG_TERM);
        assertThat(config.redisUserdb().orElseThrow().database()).isEqualTo(1);
    }

    @Test
    void useAuthSecretWithARedisUserdbTakesItsSecretsFromRedisAndGeneratesNone() {
        final TurnServerConfig config =
                assembler.assemble(List.of(), cli("use-auth-secret", "", "redis-userdb", "redis://127.0.0.1:6390"));
        assertThat(config.authMode()).isEqualTo(AuthMode.REST_SECRET);
        assertThat(config.generatedSecret()).isEmpty();
        assertThat(config.restApiSecrets()).isEmpty();
    }

    @Test
    void aBadRedisUserdbNamesTheOptionAndTheProblem() {
        assertThatThrownBy(() -> assembler.assemble(List.of(), cli("redis-userdb", "ip=h port=0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("redis-userdb")
                .hasMessageContaining("port 0");
    }

    @Test
    void longTermKeyUsesTheFinalRealmEvenIfGivenAfterTheUser() {
        final TurnServerConfig config = assembler.assemble(
                file(warnings, "lt-cred-mech", "user=ninefingers:youhavetoberealistic", "realm=elsewhere"),
                cli("realm", "north.gov"));
        assertThat(config.staticUsers())
                .singleElement()
                .extracting(StaticUser::keyHex)
                .isEqualTo("bc807ee29df3c9ffa736523fb2c4e8ee");
    }

    @Test
    void passwordMayContainColonsAndLeadingBlanksAreSkipped() {
        final TurnServerConfig a = assembler.assemble(List.of(), cli("user", "bob:pa:ss"));
        final TurnServerConfig b = assembler.assemble(List.of(), cli("user", "bob: \tpa:ss"));
        assertThat(a.staticUsers()).isEqualTo(b.staticUsers());
    }

    @Test
    void commandLineOverridesScalarsAndReplacesRepeatables() {
        final TurnServerConfig config = assembler.assemble(
                file(
                        warnings,
                        "listening-port=3479",
                        "min-port=50000",
                        "listening-ip=10.0.0.1",
                        "listening-ip=10.0.0.2",
                        "relay-ip=10.0.0.3"),
                cli("listening-port", "3480", "listening-ip", "127.0.0.1"));
        assertThat(config.listeningPort()).isEqualTo(3480);
        assertThat(config.minPort()).isEqualTo(50000);
        assertThat(config.listeningIps()).containsExactly(IpLiterals.parse("127.0.0.1"));
        assertThat(config.relayIps()).containsExactly(IpLiterals.parse("10.0.0.3"));
    }

    @Test
    void unsupportedOptionIsWarnedAboutExactlyOnceAcrossFileAndCommandLine() {
        assembler.assemble(
                file(warnings, "cli-password=a", "cli-password=b", "no-cli"), cli("cli-password", "c", "daemon", ""));
        assertThat(warnings.messages)
                .containsExactly(
                        "coturn option 'cli-password' is not supported by Tern and is ignored",
                        "coturn option 'daemon' is not supported by Tern and is ignored");
    }

    @Test
    void userdbIsAcceptedWithAWarning() {
        assembler.assemble(file(warnings, "userdb=/var/lib/turn/turndb"), List.of());
        assertThat(warnings.messages).containsExactly("coturn option 'userdb' is not supported by Tern and is ignored");
    }

    @Test
    void flagsTakeCoturnBooleanValues() {
        final TurnServerConfig config = assembler.assemble(
                file(
                        warnings,
                        "fingerprint=yes",
                        "no-udp=off",
                        "no-tcp=1",
                        "no-tls=false",
                        "no-dtls=T",
                        "allow-loopback-peers=0",
                        "no-multicast-peers=on"),
                List.of());
        assertThat(config.fingerprint()).isTrue();
        assertThat(config.noUdp()).isFalse();
        assertThat(config.noTcp()).isTrue();
        assertThat(config.noTls()).isFalse();
        assertThat(config.noDtls()).isTrue();
        assertThat(config.allowLoopbackPeers()).isFalse();
        assertThat(config.noMulticastPeers()).isTrue();
    }

    @Test
    void verboseLevelsFollowCoturn() {
        assertThat(assembler
                        .assemble(List.of(), cli("Verbose", "", "verbose", ""))
                        .verbosity())
                .isEqualTo(Verbosity.EXTRA);
        assertThat(assembler.assemble(List.of(), cli("verbose", "")).verbosity())
                .isEqualTo(Verbosity.NORMAL);
        assertThat(assembler
                        .assemble(List.of(), cli("verbose", "", "verbose", "off"))
                        .verbosity())
                .isEqualTo(Verbosity.NONE);
    }

    @Test
    void optionalLifetimesWithoutValueUseTheDefault() {
        final TurnServerConfig config = assembler.assemble(
                file(warnings, "stale-nonce=10", "stale-nonce", "max-allocate-lifetime=60", "channel-lifetime"),
                List.of());
        assertThat(config.staleNonceSeconds()).isEqualTo(600);
        assertThat(config.maxAllocateLifetimeSeconds()).isEqualTo(60);
        assertThat(config.defaultAllocationLifetimeSeconds()).isEqualTo(60);
        assertThat(config.channelLifetimeSeconds()).isEqualTo(600);
    }

    @Test
    void tcpConnectionBoundsAreParsed() {
        final TurnServerConfig config = assembler.assemble(
                file(
                        warnings,
                        "max-tcp-connections=500",
                        "max-tcp-connections-per-ip 8",
                        "tcp-idle-timeout=5",
                        "tcp-message-timeout=3",
                        "tls-handshake-timeout=4",
                        "tcp-write-low-water-mark=0",
                        "tcp-write-high-water-mark=1024"),
                cli("max-tcp-connections-per-ip", "1000"));
        assertThat(config.maxTcpConnections()).isEqualTo(500);
        assertThat(config.maxTcpConnectionsPerIp()).isEqualTo(1000);
        assertThat(config.tcpIdleTimeoutSeconds()).isEqualTo(5);
        assertThat(config.tcpMessageTimeoutSeconds()).isEqualTo(3);
        assertThat(config.tlsHandshakeTimeoutSeconds()).isEqualTo(4);
        assertThat(config.tcpWriteLowWaterMarkBytes()).isZero();
        assertThat(config.tcpWriteHighWaterMarkBytes()).isEqualTo(1024);
        assertThat(warnings.messages).isEmpty();
    }

    @Test
    void strictChannelNumbersIsAFlag() {
        assertThat(assembler
                        .assemble(file(warnings, "strict-channel-numbers"), List.of())
                        .strictChannelNumbers())
                .isTrue();
        assertThat(assembler
                        .assemble(file(warnings, "strict-channel-numbers"), cli("strict-channel-numbers", "off"))
                        .strictChannelNumbers())
                .isFalse();
    }

    @Test
    void writeLowWaterMarkAboveHighNamesBothAndTheirSources() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "tcp-write-low-water-mark=300000"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("tcp-write-low-water-mark 300000 > tcp-write-high-water-mark 262144 "
                        + "(tcp-write-low-water-mark in test.conf:1, tcp-write-high-water-mark by default)");
    }

    @Test
    void cidrAndRangesAreParsed() {
        final TurnServerConfig config = assembler.assemble(
                file(
                        warnings,
                        "denied-peer-ip=192.168.0.0/16",
                        "denied-peer-ip=fc00::/7",
                        "allowed-peer-ip=192.168.1.10-192.168.1.20"),
                List.of());
        assertThat(config.deniedPeerIps().get(0).contains(TransportAddress.parse("192.168.255.255", 0)))
                .isTrue();
        assertThat(config.deniedPeerIps().get(0).contains(TransportAddress.parse("192.169.0.0", 0)))
                .isFalse();
        assertThat(config.deniedPeerIps().get(1).contains(TransportAddress.parse("fdff::1", 0)))
                .isTrue();
        assertThat(config.deniedPeerIps().get(1).contains(TransportAddress.parse("192.168.0.1", 0)))
                .isFalse();
        assertThat(config.allowedPeerIps().get(0).contains(TransportAddress.parse("192.168.1.15", 0)))
                .isTrue();
    }

    /** Every invalid value names the option, the value and where it came from. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "listening-port        | 0             | must be 1-65535",
                "listening-port        | 65536         | must be 1-65535",
                "listening-port        | 34x           | must be 1-65535",
                "tls-listening-port    | -1            | must be 1-65535",
                "min-port              | 70000         | must be 1-65535",
                "max-port              | abc           | must be 1-65535",
                "prometheus-port       | 99999         | must be 1-65535",
                "relay-threads         | 5000          | must be 0-1024",
                "user-quota            | -1            | must be a whole number >= 0",
                "total-quota           | 1e3           | must be a whole number >= 0",
                "max-allocations       | 0             | must be a whole number >= 1",
                "unauthenticated-rate  | 0             | must be a whole number >= 1",
                "max-allocate-lifetime | -5            | must be a whole number >= 1",
                "channel-lifetime      | 0             | must be a whole number >= 1",
                "permission-lifetime   | -300          | must be a whole number >= 1",
                "stale-nonce           | -1            | must be a whole number >= 0",
                "stale-nonce           | 99999999999   | must be a whole number >= 0",
                "max-tcp-connections   | 0             | must be a whole number >= 1",
                "max-tcp-connections   | many          | must be a whole number >= 1",
                "max-tcp-connections-per-ip | 0        | must be a whole number >= 1",
                "max-tcp-connections-per-ip | -64      | must be a whole number >= 1",
                "max-tcp-connections-per-ip | 3000000000 | must be a whole number >= 1",
                "tcp-idle-timeout      | 0             | must be a whole number >= 1",
                "tcp-idle-timeout      | 30s           | must be a whole number >= 1",
                "tcp-message-timeout   | -10           | must be a whole number >= 1",
                "tcp-message-timeout   | 1.5           | must be a whole number >= 1",
                "tls-handshake-timeout | 0             | must be a whole number >= 1",
                "tcp-write-low-water-mark | -1         | must be a whole number >= 0",
                "tcp-write-high-water-mark | 0         | must be a whole number >= 1",
                "tcp-write-high-water-mark | 256k      | must be a whole number >= 1",
                "strict-channel-numbers | strict       | use on/off, yes/no, 1/0 or true/false",
                "listening-ip          | 1.2.3         | not an IP address",
                "listening-ip          | 256.1.1.1     | not an IP address",
                "listening-ip          | example.com   | not an IP address",
                "relay-ip              | 1.2.3.4.5     | not an IP address",
                "relay-ip              | fe80::1::2    | not an IP address",
                "external-ip           | 1.2.3.4/::1   | must be 'public-ip' or 'public-ip/private-ip'",
                "external-ip           | host/1.2.3.4  | must be 'public-ip' or 'public-ip/private-ip'",
                "allowed-peer-ip       | 10.0.0.9-10.0.0.1 | must be 'ip', 'ip1-ip2' or 'ip/prefix'",
                "allowed-peer-ip       | 10.0.0.1-::1  | must be 'ip', 'ip1-ip2' or 'ip/prefix'",
                "denied-peer-ip        | 10.0.0.0/33   | must be 'ip', 'ip1-ip2' or 'ip/prefix'",
                "denied-peer-ip        | 10.0.0.0/x    | must be 'ip', 'ip1-ip2' or 'ip/prefix'",
                "denied-peer-ip        | nonsense      | must be 'ip', 'ip1-ip2' or 'ip/prefix'",
                "rest-api-separator    | ::            | must be a single character",
                "fingerprint           | maybe         | use on/off, yes/no, 1/0 or true/false",
                "no-udp                | 0n            | use on/off, yes/no, 1/0 or true/false",
                "user                  | alice         | must be name:password or name:0x<32 hex digits>",
                "user                  | :secret       | must be name:password or name:0x<32 hex digits>",
                "user                  | alice:        | must be name:password or name:0x<32 hex digits>",
                "user                  | bob:0xabc     | the key after '0x' must be exactly 32 hex digits",
                "user                  | bob:0xbc807ee29df3c9ffa736523fb2c4e8eZ | the key after '0x' must be exactly 32 hex digits",
                "user                  | bob:0xbc807ee29df3c9ffa736523fb2c4e8ee00 | the key after '0x' must be exactly 32 hex digits",
                "cert                  | /nonexistent/cert.pem | file not readable",
                "cluster-redis         | http://127.0.0.1:6379 | must start redis:// or rediss://",
                "cluster-redis         | redis://127.0.0.1:6379/x | database 'x' is not a number",
                "cluster-redis         | redis:///0    | has no host",
                "cluster-node-id       | node a        | must be 1 to 128 letters",
                "cluster-lease-ttl     | 0             | must be 1-3600",
            })
    void invalidValuesNameOptionValueAndSource(final String option, final String value, final String reason) {
        final List<String> extra = option.equals("cert") ? List.of("pkey=/nonexistent/pkey.pem") : List.of();
        final List<String> lines = new java.util.ArrayList<>(extra);
        lines.add(option + "=" + value);
        final int line = lines.size();
        assertThatThrownBy(() -> assembler.assemble(file(warnings, lines.toArray(String[]::new)), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value for option '" + option + "': '" + value + "' (" + reason)
                .hasMessageEndingWith(" in test.conf:" + line);

        assertThatThrownBy(() -> assembler.assemble(List.of(), concat(cliFor(extra), cli(option, value))))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value for option '" + option + "': '" + value + "' (" + reason)
                .hasMessageEndingWith(" on the command line");
    }

    @Test
    void requiredValueMissing() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "realm"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Invalid value for option 'realm': '' (a value is required) in test.conf:1");
    }

    @Test
    void minPortAboveMaxPortNamesBothAndTheirSources() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "min-port=60000"), cli("max-port", "50000")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("min-port 60000 > max-port 50000 (min-port in test.conf:1, max-port on the command line)");
    }

    @Test
    void twoBareExternalIpsAreAnError() {
        assertThatThrownBy(() ->
                        assembler.assemble(file(warnings, "external-ip=1.2.3.4", "external-ip=5.6.7.8"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value for option 'external-ip': '5.6.7.8' (only one external-ip")
                .hasMessageEndingWith("in test.conf:2");
    }

    @Test
    void certWithoutPkeyIsAnError() {
        assertThatThrownBy(() -> assembler.assemble(file(warnings, "cert=/etc/cert.pem"), List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Option 'cert' ('/etc/cert.pem' in test.conf:1) needs option 'pkey' too");
    }

    @Test
    void explicitTlsPortWithoutCertificateIsAnError() {
        assertThatThrownBy(() -> assembler.assemble(List.of(), cli("tls-listening-port", "5349")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Option 'tls-listening-port' ('5349' on the command line) needs options 'cert' and 'pkey' "
                        + "(or set 'no-tls')");
        // ...but fine with no-tls.
        assertThat(assembler
                        .assemble(List.of(), cli("tls-listening-port", "5349", "no-tls", ""))
                        .tlsEnabled())
                .isFalse();
    }

    @Test
    void tlsPortEqualToPlainPortIsAnError() {
        final String cert = ConfigTestSupport.resource("turn_server_cert.pem").toString();
        final String pkey = ConfigTestSupport.resource("turn_server_pkey.pem").toString();
        assertThatThrownBy(() -> assembler.assemble(
                        List.of(),
                        cli("cert", cert, "pkey", pkey, "listening-port", "443", "tls-listening-port", "443")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("listening-port 443 on the command line and tls-listening-port 443");
    }

    @Test
    void toStringRedactsSecrets() {
        final TurnServerConfig rest = assembler.assemble(List.of(), cli("static-auth-secret", "hunter2"));
        assertThat(rest.toString()).doesNotContain("hunter2");
        final TurnServerConfig generated = assembler.assemble(List.of(), List.of());
        assertThat(generated.toString())
                .doesNotContain(generated.generatedSecret().get());
        final TurnServerConfig longTerm = assembler.assemble(List.of(), cli("user", "a:b"));
        assertThat(longTerm.toString())
                .doesNotContain(longTerm.staticUsers().get(0).keyHex());
    }

    @Test
    void summaryReadsBackToTheSameConfig() {
        final TurnServerConfig original = assembler.assemble(
                new CoturnConfigReader(warnings).read(ConfigTestSupport.resource("turnserver-example.conf")),
                List.of());
        final String summary = ConfigSummary.format(original, true);
        // The summary omits user keys, so add them back as the only non-printed part.
        final List<Occurrence> reread =
                new CoturnConfigReader(warnings).read("summary", summary.lines().toList());
        final List<Occurrence> users = original.staticUsers().stream()
                .map(u -> new Occurrence(
                        CoturnOptions.find("user"), u.name() + ":0x" + u.keyHex(), ConfigSource.commandLine()))
                .toList();
        final TurnServerConfig again = assembler.assemble(reread, users);
        assertThat(again).isEqualTo(original);
    }

    private static List<Occurrence> cliFor(final List<String> lines) {
        final List<Occurrence> values = new java.util.ArrayList<>();
        for (final String line : lines) {
            final int eq = line.indexOf('=');
            values.addAll(cli(line.substring(0, eq), line.substring(eq + 1)));
        }
        return values;
    }

    private static List<Occurrence> concat(final List<Occurrence> a, final List<Occurrence> b) {
        final List<Occurrence> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
