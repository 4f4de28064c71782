package io.tern.server.origin.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.hls.swarm.Attestation;
import io.tern.hls.swarm.ObjectKind;
import io.tern.hls.swarm.SessionEndorsement;
import io.tern.hls.swarm.SwarmMessages;
import io.tern.server.interop.CoturnTools;
import io.tern.server.interop.CoturnTools.UclientResult;
import io.tern.server.interop.InteropRelay;
import io.tern.server.origin.OriginLauncher;
import io.tern.server.origin.harness.FfmpegPublisher;
import io.tern.server.origin.harness.Harness;
import io.tern.server.origin.harness.HlsParser;
import io.tern.server.origin.harness.Json;
import io.tern.testkit.Await;
import io.tern.testkit.TestTls;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An origin with the swarm on for one stream ({@code [stream cam1] swarm = on}) and Tern's TURN
 * relay in its process ({@code --turn-config}), ffmpeg publishing cam1 and cam2: cam1's playlists
 * carry attestations that verify over the bytes served and still pass hls-parser's strict mode,
 * cam2's carry none; {@code /api/v1/swarm/cam1} answers as documented with a TURN REST credential
 * that coturn's turnutils_uclient allocates and relays with on the in-process relay over UDP, TCP and
 * TLS; the rate limit
 * answers 429; {@code /api/v1/turn} summarises the relay.
 */
class OriginSwarmTest {
    private static final String SECRET = "swarm-test-rest-secret";
    private static final Pattern PART_URI = Pattern.compile("#EXT-X-PART:.*URI=\"([^\"]+)\".*");

    private Path dir;
    private OriginFixture origin;
    private int relayPort;
    private int relayTlsPort;

    @BeforeEach
    void start() throws Exception {
        FfmpegPublisher.require();
        HlsParser.require();
        dir = Files.createTempDirectory("tern-swarm");
        TestTls.Pem pem = TestTls.selfSigned(dir, "CN=localhost");
        relayPort = InteropRelay.freePort();
        relayTlsPort = InteropRelay.freePort();
        int relayBase = 30000 + (int) (System.nanoTime() % 100) * 100;
        Files.write(
                dir.resolve("turn.conf"),
                List.of(
                        "listening-ip=127.0.0.1",
                        "relay-ip=127.0.0.1",
                        "listening-port=" + relayPort,
                        "tls-listening-port=" + relayTlsPort,
                        "min-port=" + relayBase,
                        "max-port=" + (relayBase + 99),
                        "realm=swarm.test",
                        "use-auth-secret",
                        "static-auth-secret=" + SECRET,
                        "allow-loopback-peers",
                        "cert=" + pem.cert(),
                        "pkey=" + pem.key(),
                        "no-dtls"));
        origin = new OriginFixture(
                List.of("[stream cam1]", "swarm = on"),
                "no-publish-auth",
                "nostr-db=" + dir.resolve("relay.db"),
                "swarm-key-file=" + dir.resolve("swarm.key"),
                "turn-config=" + dir.resolve("turn.conf"),
                "swarm-rate-per-minute=6");
    }

    @AfterEach
    void stop() throws Exception {
        if (origin != null) {
            origin.close();
        }
        Harness.deleteTree(dir);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSwarmStreamIsSignedItsConfigurationHandsOutWorkingTurnCredentialsAndTheRestIsUnchanged() throws Exception {
        Path keyFile = dir.resolve("swarm.key");
        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(keyFile)).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(origin.server.swarmKey().created()).isTrue();
        String originKey = origin.server.swarmKey().key().publicB64url();
        assertThat(OriginLauncher.announcement(origin.server))
                .contains("Swarm origin key (created now in " + keyFile + "): " + originKey);

        try (FfmpegPublisher cam1 = FfmpegPublisher.rtmp(origin.rtmpUrl("cam1"), 0);
                FfmpegPublisher cam2 = FfmpegPublisher.rtmp(origin.rtmpUrl("cam2"), 0)) {
            String instance = origin.awaitStream("cam1", 30_000);
            String plainInstance = origin.awaitStream("cam2", 30_000);
            assertThat(origin.get("/live/cam1/").body()).contains("<meta name=\"tern-swarm\" content=\"on\">");
            assertThat(origin.get("/live/cam2/").body()).doesNotContain("tern-swarm");

            // cam1: every object listed is attested by a session key the origin key endorsed, over the bytes served.
            String media = Await.awaitValue(
                    "two complete cam1 segments listed",
                    Duration.ofSeconds(30),
                    Duration.ofMillis(300),
                    () -> {
                        String body = origin.get("/live/cam1/" + instance + "/video.m3u8")
                                .body();
                        return body.split("#EXTINF:", -1).length > 2 ? body : null;
                    },
                    () -> "");
            List<String> lines = Arrays.asList(media.split("\n"));
            SessionEndorsement session = lines.stream()
                    .map(SessionEndorsement::parseTag)
                    .filter(s -> s != null)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no session in " + media));
            assertThat(session.verifies(SwarmMessages.fromB64url(originKey), "cam1", instance))
                    .isTrue();
            verifyObjects(lines, instance, session.sessionKey());

            // hls-parser's strict mode still takes the signed playlists: full, delta and multivariant.
            try (HlsParser parser = HlsParser.start()) {
                for (String path : List.of("video.m3u8", "video.m3u8?_HLS_skip=YES")) {
                    HlsParser.Result r = parser.parse(
                            origin.get("/live/cam1/" + instance + "/" + path).body());
                    assertThat(r.ok()).as("%s: %s", path, r.error()).isTrue();
                    assertThat(Json.list(r.playlist(), "segments")).isNotEmpty();
                }
                assertThat(parser.parse(origin.get(origin.playUrl("cam1")).body())
                                .ok())
                        .isTrue();
            }
            // cam2 has the swarm off: no tag of it.
            assertThat(origin.get("/live/cam2/" + plainInstance + "/video.m3u8").body())
                    .doesNotContain("TERN");

            // The configuration a viewer's library asks for.
            OpenApiCheck openApi =
                    new OpenApiCheck(origin.get("/api/v1/openapi.json").body());
            assertThat(openApi.operations()).isEqualTo(OpenApiCheck.served());
            HttpResponse<String> answer = origin.get("/api/v1/swarm/cam1");
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.headers().firstValue("cache-control")).hasValue("no-store");
            openApi.check("GET", "/api/v1/swarm/{name}", 200, answer.body());
            Map<String, Object> swarm = (Map<String, Object>) Json.parse(answer.body());
            assertThat(swarm.get("stream")).isEqualTo("cam1");
            assertThat(swarm.get("instance")).isEqualTo(instance);
            assertThat(swarm.get("originKey")).isEqualTo(originKey);
            assertThat(Json.at(swarm, "sessions", 0, "key")).isEqualTo(SwarmMessages.b64url(session.sessionKey()));
            assertThat(swarm.get("nostr")).isEqualTo("ws://127.0.0.1:" + origin.server.httpPort() + "/nostr");
            assertThat(Json.list(swarm, "iceServers", 0, "urls"))
                    .containsExactly(
                            "turn:127.0.0.1:" + relayPort + "?transport=udp",
                            "turn:127.0.0.1:" + relayPort + "?transport=tcp",
                            "turns:127.0.0.1:" + relayTlsPort + "?transport=tcp");
            String username = (String) Json.at(swarm, "iceServers", 0, "username");
            String credential = (String) Json.at(swarm, "iceServers", 0, "credential");
            long expiry = Long.parseLong(username.substring(0, username.indexOf(':')));
            long now = Instant.now().getEpochSecond();
            assertThat(expiry).isBetween(now + 3500, now + 3600);
            assertThat(credential).isEqualTo(hmacSha1Base64(SECRET, username));
            assertThat(swarm.get("credentialTtlSeconds")).isEqualTo(3600.0);

            // coturn's client allocates on the in-process relay with that credential, and relays.
            Path peerTool = CoturnTools.require("turnutils_peer");
            Path uclient = CoturnTools.require("turnutils_uclient");
            int peerPort = InteropRelay.freePort();
            Process peer = CoturnTools.start(peerTool.toString(), "-p", Integer.toString(peerPort), "-L", "127.0.0.1");
            try {
                // Every transport the answer lists: UDP and TCP on one port, TLS on the other.
                for (String transport : List.of("udp", "tcp", "tls")) {
                    UclientResult relayed =
                            UclientResult.parse(uclient(uclient, transport, username, credential, peerPort));
                    assertThat(relayed.received())
                            .as("%s: %s", transport, relayed.output())
                            .isEqualTo(40);
                }
                long failuresBefore = authFailures();
                String wrong = CoturnTools.run(
                        60,
                        uclient.toString(),
                        "-u",
                        username,
                        "-w",
                        "not" + credential,
                        "-e",
                        "127.0.0.1",
                        "-r",
                        Integer.toString(peerPort),
                        "-p",
                        Integer.toString(relayPort),
                        "-n",
                        "1",
                        "-m",
                        "1",
                        "127.0.0.1");
                assertThat(wrong).doesNotContain("tot_recv_msgs=1");
                assertThat(authFailures())
                        .as("the relay refused the wrong credential")
                        .isGreaterThan(failuresBefore);
            } finally {
                peer.destroy();
                peer.waitFor();
            }

            // The relay in the process: /api/v1/turn summarises it instead of answering 404.
            HttpResponse<String> turn = origin.get("/api/v1/turn");
            assertThat(turn.statusCode()).as(turn.body()).isEqualTo(200);
            openApi.check("GET", "/api/v1/turn", 200, turn.body());
            assertThat((Map<String, Object>) Json.at(Json.parse(turn.body()), "allocations"))
                    .containsKeys("udp", "tcp", "tls");

            // Streams without the swarm, or unknown: 404. Past the rate: 429 with Retry-After.
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> limited = null;
            for (int i = 0; i < 8 && limited == null; i++) {
                HttpResponse<String> r = origin.get(i % 2 == 0 ? "/api/v1/swarm/cam2" : "/api/v1/swarm/nope");
                statuses.add(r.statusCode());
                if (r.statusCode() == 429) {
                    limited = r;
                } else {
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
                    openApi.check("GET", "/api/v1/swarm/{name}", 404, r.body());
                }
            }
            assertThat(limited).as("statuses %s", statuses).isNotNull();
            assertThat(Long.parseLong(
                            limited.headers().firstValue("retry-after").orElseThrow()))
                    .isBetween(1L, 60L);
            openApi.check("GET", "/api/v1/swarm/{name}", 429, limited.body());

            // The library, as the build packaged it from tern-swarm/, under /_tern/swarm/.
            for (String file : List.of("index.js", "nostr.bundle.js")) {
                java.net.URL packaged = OriginSwarmTest.class.getResource("/io/tern/server/origin/web/swarm/" + file);
                HttpResponse<byte[]> served = origin.getBytes("/_tern/swarm/" + file);
                if (packaged == null) {
                    assertThat(served.statusCode())
                            .as("%s is not packaged", file)
                            .isEqualTo(404);
                } else {
                    assertThat(served.statusCode()).as(file).isEqualTo(200);
                    assertThat(served.headers().firstValue("content-type")).hasValue("text/javascript; charset=utf-8");
                    try (var in = packaged.openStream()) {
                        assertThat(served.body()).isEqualTo(in.readAllBytes());
                    }
                }
            }
            assertThat(origin.get("/_tern/swarm/no-such-module.js").statusCode())
                    .isEqualTo(404);
        }
    }

    /** Every part, segment and init segment the playlist lists verifies over the bytes the origin serves. */
    private void verifyObjects(List<String> lines, String instance, byte[] sessionKey) throws Exception {
        String base = "/live/cam1/" + instance + "/";
        long msn = Long.parseLong(lines.stream()
                .filter(l -> l.startsWith("#EXT-X-MEDIA-SEQUENCE:"))
                .findFirst()
                .orElseThrow()
                .substring("#EXT-X-MEDIA-SEQUENCE:".length()));
        int part = 0;
        int parts = 0;
        int segments = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher p = PART_URI.matcher(line);
            if (p.matches()) {
                Attestation a = Attestation.parseTag(lines.get(i - 1));
                byte[] bytes = origin.getBytes(base + p.group(1)).body();
                assertThat(a.verifies(sessionKey, ObjectKind.PART, "cam1", "video", instance, msn, part, bytes))
                        .as(line)
                        .isTrue();
                byte[] flipped = bytes.clone();
                flipped[flipped.length / 2] ^= 1;
                assertThat(a.verifies(sessionKey, ObjectKind.PART, "cam1", "video", instance, msn, part, flipped))
                        .isFalse();
                part++;
                parts++;
            } else if (line.startsWith("#EXT-X-MAP:URI=")) {
                String uri = line.substring("#EXT-X-MAP:URI=\"".length(), line.length() - 1);
                Attestation a = Attestation.parseTag(lines.get(i + 1));
                byte[] bytes = origin.getBytes(base + uri).body();
                assertThat(a.verifies(sessionKey, ObjectKind.INIT, "cam1", "video", instance, -1, -1, bytes))
                        .isTrue();
            } else if (line.startsWith("#EXTINF:")) {
                Attestation a = Attestation.parseTag(lines.get(i + 1));
                byte[] bytes = origin.getBytes(base + lines.get(i + 2)).body();
                assertThat(a.verifies(sessionKey, ObjectKind.SEGMENT, "cam1", "video", instance, msn, -1, bytes))
                        .as(lines.get(i + 2))
                        .isTrue();
                assertThat(a.verifies(sessionKey, ObjectKind.SEGMENT, "cam1", "audio", instance, msn, -1, bytes))
                        .isFalse();
                msn++;
                part = 0;
                segments++;
            }
        }
        assertThat(segments).isGreaterThanOrEqualTo(2);
        assertThat(parts).isGreaterThanOrEqualTo(3);
    }

    /** turnutils_uclient over {@code transport} to the in-process relay: 2 clients, 20 messages each, to the peer. */
    private String uclient(Path tool, String transport, String username, String credential, int peerPort)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(tool.toString(), "-u", username, "-w", credential));
        switch (transport) {
            case "tcp" -> command.add("-t");
            case "tls" -> command.addAll(List.of("-t", "-S"));
            default -> {}
        }
        command.addAll(List.of(
                "-e",
                "127.0.0.1",
                "-r",
                Integer.toString(peerPort),
                "-p",
                Integer.toString(transport.equals("tls") ? relayTlsPort : relayPort),
                "-n",
                "20",
                "-m",
                "2",
                "-l",
                "160",
                "127.0.0.1"));
        return CoturnTools.run(60, command.toArray(String[]::new));
    }

    private long authFailures() {
        return origin.server.relay().server().engines().stream()
                .mapToLong(e -> e.counters().authFailures())
                .sum();
    }

    private static String hmacSha1Base64(String secret, String message) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    }
}
