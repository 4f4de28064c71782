package io.tern.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tern.server.metrics.RelayFixture;
import io.tern.testkit.ExternalPeers;
import io.tern.testkit.TestTls;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Browser qualification: headless Chromium (Debian's {@code /usr/bin/chromium}, driven by
 * playwright-core from {@code src/test/browser}) opens two RTCPeerConnections whose only ICE
 * server is Tern, in-process here, with {@code iceTransportPolicy: 'relay'} and TURN REST
 * credentials computed here. Twenty data-channel messages each way, one of 16 KiB, must arrive
 * byte for byte, over a selected pair of relay candidates of the expected transport.
 *
 * <p>Needs {@code node}, Chromium and {@code npm ci} in {@code src/test/browser}. Without them the
 * test is skipped locally and fails when {@code CI=true}.
 */
class BrowserRelayTest {
    private static final Path BROWSER_DIR = Path.of(System.getProperty("basedir", "."), "src/test/browser");
    private static final Path SCRIPT = BROWSER_DIR.resolve("webrtc-relay.js");
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("TERN_CHROMIUM", "/usr/bin/chromium"));
    private static final int MESSAGES = 20;
    private static final int LARGE_BYTES = 16 * 1024;
    private static final long NODE_TIMEOUT_SECONDS = 90;

    /** The client-to-Tern transport of the browser's TURN allocation. */
    enum Transport {
        UDP("turn", "udp", "udp"),
        TCP("turn", "tcp", "tcp"),
        TLS("turns", "tcp", "tls");

        final String scheme;
        final String urlTransport;
        /** What Chromium reports as the local relay candidate's {@code relayProtocol}. */
        final String relayProtocol;

        Transport(String scheme, String urlTransport, String relayProtocol) {
            this.scheme = scheme;
            this.urlTransport = urlTransport;
            this.relayProtocol = relayProtocol;
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void dataChannelsCrossTernAsTheOnlyIceServer(Transport transport) throws Exception {
        requireBrowserTooling(transport);
        Path tlsDir = Files.createTempDirectory("tern-browser-tls");
        String[] tlsOptions = {};
        if (transport == Transport.TLS) {
            // Chromium runs with --ignore-certificate-errors.
            TestTls.Pem pem = TestTls.selfSigned(tlsDir, "CN=127.0.0.1");
            Path cert = pem.cert();
            Path key = pem.key();
            tlsOptions = new String[] {
                "tls-listening-port",
                Integer.toString(io.tern.server.interop.InteropRelay.freePort()),
                "cert",
                cert.toString(),
                "pkey",
                key.toString()
            };
        }
        try (RelayFixture relay = RelayFixture.start(tlsOptions)) {
            int port = switch (transport) {
                case UDP -> relay.udpAddress().getPort();
                case TCP -> relay.config.listeningPort();
                case TLS -> relay.config.tlsListeningPort();
            };
            String url = transport.scheme + ":127.0.0.1:" + port + "?transport=" + transport.urlTransport;
            String username = RelayFixture.restUsername("browser");
            String options = "{\"url\":\"" + url + "\",\"username\":\"" + username + "\",\"credential\":\""
                    + RelayFixture.restPassword(username) + "\",\"messages\":" + MESSAGES + ",\"largeBytes\":"
                    + LARGE_BYTES
                    + ",\"timeoutMs\":30000,\"extraArgs\":"
                    + (transport == Transport.TLS ? "[\"--ignore-certificate-errors\"]" : "[]") + "}";

            String json = runNode(options);
            System.out.println("browser " + transport + ": " + json);

            assertThat(field(json, "ok")).as(json).isEqualTo("true");
            assertThat(json).as("mismatches").contains("\"mismatches\":[]");
            assertThat(field(json, "messagesEachWay")).isEqualTo(Integer.toString(MESSAGES));
            assertThat(field(json, "largestMessage")).isEqualTo(Integer.toString(LARGE_BYTES));
            for (String side : List.of("selectedA", "selectedB")) {
                String pair = object(json, side);
                assertThat(field(pair, "localCandidateType"))
                        .as(side + " " + pair)
                        .isEqualTo("relay");
                assertThat(field(pair, "remoteCandidateType"))
                        .as(side + " " + pair)
                        .isEqualTo("relay");
                assertThat(field(pair, "relayProtocol")).as(side + " " + pair).isEqualTo(transport.relayProtocol);
                assertThat(field(pair, "url")).as(side + " " + pair).isEqualTo(url);
                assertThat(field(pair, "localAddress")).as(side + " " + pair).startsWith("127.0.0.1:");
            }
            assertThat(field(object(json, "selectedA"), "state")).isEqualTo("succeeded");

            // And Tern counted it, under the right transport.
            String t = transport.name().toLowerCase(java.util.Locale.ROOT);
            Map<String, Double> m = relay.scrape();
            assertThat(m.get(RelayFixture.series(
                            "tern_relayed_packets_total{direction=\"client_to_peer\",transport=\"" + t + "\"}")))
                    .isGreaterThanOrEqualTo(2.0 * MESSAGES);
            assertThat(m.get(RelayFixture.series(
                            "tern_relayed_packets_total{direction=\"peer_to_client\",transport=\"" + t + "\"}")))
                    .isGreaterThanOrEqualTo(2.0 * MESSAGES);
            assertThat(m.get("tern_auth_failures_total")).isZero();
        } finally {
            deleteTree(tlsDir);
        }
    }

    private static void requireBrowserTooling(Transport transport) {
        List<String> missing = new ArrayList<>();
        if (findOnPath("node") == null) {
            missing.add("node (apt-get install nodejs)");
        }
        if (!Files.isExecutable(CHROMIUM)) {
            missing.add(CHROMIUM + " (apt-get install chromium)");
        }
        if (!Files.isDirectory(BROWSER_DIR.resolve("node_modules/playwright-core"))) {
            missing.add("playwright-core (npm ci in tern-server/src/test/browser)");
        }
        if (missing.isEmpty()) {
            return;
        }
        ExternalPeers.require(false, String.join(", ", missing), "needed by the browser qualification");
    }

    private static Path findOnPath(String program) {
        return ExternalPeers.find(program).orElse(null);
    }

    /** Runs the script with a private HOME (Chromium's profile and NSS db); returns its JSON line. */
    private static String runNode(String options) throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("tern-browser-home");
        Path stdoutFile = home.resolve("node-stdout.txt");
        Path stderr = home.resolve("node-stderr.txt");
        ProcessBuilder builder = new ProcessBuilder("node", SCRIPT.getFileName().toString(), options)
                .directory(BROWSER_DIR.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(stdoutFile.toFile())
                .redirectError(stderr.toFile());
        builder.environment().put("HOME", home.toString());
        builder.environment().put("TMPDIR", home.toString());
        Process node = builder.start();
        try {
            if (!node.waitFor(NODE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                fail("node did not finish in " + NODE_TIMEOUT_SECONDS + " s; stdout: " + Files.readString(stdoutFile)
                        + "; stderr: " + Files.readString(stderr));
            }
            String stdout = Files.readString(stdoutFile, StandardCharsets.UTF_8).trim();
            if (stdout.isEmpty()) {
                fail("node printed nothing, exit " + node.exitValue() + "; stderr: " + Files.readString(stderr));
            }
            return stdout.lines().reduce((first, last) -> last).orElseThrow();
        } finally {
            node.descendants().forEach(ProcessHandle::destroyForcibly);
            node.destroyForcibly();
            deleteTree(home);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** The flat JSON object under {@code key} (the script's candidate-pair objects have no nesting). */
    private static String object(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":(\\{[^{}]*\\}|null)")
                .matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return m.group(1);
    }

    /** A scalar field: a string's contents, or a number/boolean/null literal. */
    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}\\]]+)")
                .matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return m.group(2) != null ? m.group(2) : m.group(1);
    }
}
