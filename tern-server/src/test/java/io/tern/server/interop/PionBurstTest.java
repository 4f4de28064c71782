package io.tern.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.testkit.ExternalPeers;
import io.tern.turn.engine.DropReason;
import io.tern.turn.engine.TransportProtocol;
import io.tern.turn.engine.TurnCounters;
import io.tern.turn.engine.TurnEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A second, independent client beside coturn's tools: src/test/go/pionburst, built here from
 * Debian's pion/turn sources (golang-github-pion-turn.v2-dev) in GOPATH mode, offline. It opens 32
 * UDP allocations at once, keeps 8 messages of 1400 bytes in flight through each to a local echo
 * peer, first as Send indications, then over a bound channel, and counts what came back. With
 * Linux's default 208 KiB socket buffers the burst overflowed Tern's listener (2-3% lost, counted
 * by the kernel only); coturn, which asks for large buffers, lost nothing. Outside CI a missing Go
 * toolchain or pion skips; with {@code CI=true} it fails.
 */
class PionBurstTest {
    private static final Pattern PHASE = Pattern.compile(
            "phase=(\\w+) allocations=\\d+ window=\\d+ size=\\d+ sent=(\\d+) received=(\\d+) lost=(\\d+)");
    private static final Path GOPATH = Path.of("/usr/share/gocode");
    private static final Path PION = GOPATH.resolve("src/github.com/pion/turn/v2/client.go");

    @Test
    void burstsOfThirtyTwoAllocationsLoseNothingBothAsSendIndicationsAndOverChannels() throws Exception {
        Path client = build();
        int relayBase = 20000 + ThreadLocalRandom.current().nextInt(100) * 100;
        try (InteropRelay relay = InteropRelay.start(
                "listening-ip", "127.0.0.1",
                "relay-ip", "127.0.0.1",
                "listening-port", Integer.toString(InteropRelay.freePort()),
                "min-port", Integer.toString(relayBase),
                "max-port", Integer.toString(relayBase + 99),
                "realm", "pion.test",
                "lt-cred-mech", "",
                "user", "alice:alice-secret",
                "allow-loopback-peers", "",
                "no-tcp", "",
                "no-tls", "")) {
            String output = CoturnTools.run(
                    120,
                    client.toString(),
                    "-server",
                    "127.0.0.1:" + relay.port(),
                    "-user",
                    "alice",
                    "-pass",
                    "alice-secret",
                    "-realm",
                    "pion.test",
                    "-allocations",
                    "32",
                    "-window",
                    "8",
                    "-size",
                    "1400",
                    "-rounds",
                    "25");
            String described = output + "\n" + counts(relay);
            Matcher phases = PHASE.matcher(output);
            List<String> seen = new ArrayList<>();
            while (phases.find()) {
                seen.add(phases.group(1));
                assertThat(Long.parseLong(phases.group(2))).as(described).isEqualTo(32 * 8 * 25);
                assertThat(Long.parseLong(phases.group(4))).as(described).isZero();
                assertThat(phases.group(3)).as(described).isEqualTo(phases.group(2));
            }
            assertThat(seen).as(described).containsExactly("send", "channel");
            assertThat(requests(relay, io.tern.stun.message.StunMethod.SEND))
                    .as("the first phase went as Send indications")
                    .isGreaterThanOrEqualTo(32 * 8 * 25);
        }
    }

    /** Builds the client into target/, offline, in GOPATH mode against the Debian package's sources. */
    private static Path build() throws Exception {
        Path go = Path.of("/usr/bin/go");
        ExternalPeers.requireAt(go, "golang-go");
        ExternalPeers.require(
                Files.exists(PION), "pion/turn's sources", "apt-get install golang-github-pion-turn.v2-dev");
        Path target = Path.of("target").toAbsolutePath();
        Path binary = target.resolve("pionburst");
        ProcessBuilder builder = new ProcessBuilder(go.toString(), "build", "-o", binary.toString(), ".")
                .directory(Path.of("src/test/go/pionburst").toFile())
                .redirectErrorStream(true);
        builder.environment().put("GOPATH", GOPATH.toString());
        builder.environment().put("GO111MODULE", "off");
        builder.environment().put("GOFLAGS", "");
        builder.environment().put("GOCACHE", target.resolve("go-cache").toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("go build: %s", output).isZero();
        return binary;
    }

    private static long requests(InteropRelay relay, int method) {
        long n = 0;
        for (TurnEngine engine : relay.server.engines()) {
            n += engine.counters().requests(method);
        }
        return n;
    }

    private static String counts(InteropRelay relay) {
        StringBuilder out = new StringBuilder("Tern relayed");
        long toPeer = 0;
        long toClient = 0;
        for (TurnEngine engine : relay.server.engines()) {
            toPeer += engine.counters().relayedPackets(TurnCounters.DIRECTION_CLIENT_TO_PEER, TransportProtocol.UDP);
            toClient += engine.counters().relayedPackets(TurnCounters.DIRECTION_PEER_TO_CLIENT, TransportProtocol.UDP);
        }
        out.append(" client-to-peer ")
                .append(toPeer)
                .append(", peer-to-client ")
                .append(toClient);
        out.append("; kernel receive-buffer drops ")
                .append(relay.server.kernelReceiveDrops())
                .append("; drops:");
        for (DropReason reason : DropReason.values()) {
            long drops = 0;
            for (TurnEngine engine : relay.server.engines()) {
                drops += engine.counters().drops(reason);
            }
            if (drops > 0) {
                out.append(' ').append(reason).append('=').append(drops);
            }
        }
        return out.toString();
    }
}
