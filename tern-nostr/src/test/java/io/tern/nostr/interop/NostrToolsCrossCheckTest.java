package io.tern.nostr.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.crypto.BouncyCastleSchnorrVerifier;
import io.tern.nostr.event.Event;
import io.tern.nostr.event.EventHasher;
import io.tern.nostr.event.EventParser;
import io.tern.nostr.event.ParsedEvent;
import io.tern.nostr.json.Json;
import io.tern.nostr.testing.Keys;
import io.tern.nostr.testing.TestJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nostr-tools 2.25.2 ({@code getEventHash}, {@code verifyEvent}, {@code finalizeEvent}) as the
 * oracle for Tern's hand-written canonical serialisation and its signature checks, both ways.
 */
class NostrToolsCrossCheckTest {
    /** Every character class the escaper treats apart, and a few it must leave alone. */
    private static final String[] PIECES = {
        "\n",
        "\r",
        "\t",
        "\b",
        "\f",
        "\"",
        "\\",
        "/",
        "\u0000",
        "\u0001",
        "\u000b",
        "\u001f",
        "\u007f",
        "\u0080",
        "\u2028",
        "\u2029",
        "é",
        "中",
        "\uD83E\uDD85",
        "\uD800",
        "\uDFFF",
        "\uFFFF",
        " ",
        "a",
        "<",
        "&",
        "'"
    };

    @TempDir
    Path dir;

    @BeforeEach
    void requireNode() {
        NodePeer.require();
    }

    private static String text(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(16); i > 0; i--) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.toString();
    }

    @Test
    void nostrToolsComputesTernsIdsAndAcceptsTernsSignatures() throws Exception {
        Random r = new Random(2025);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Keys k = Keys.fromSeed(1000 + i % 17);
            List<List<String>> tags = new ArrayList<>();
            for (int t = r.nextInt(4); t > 0; t--) {
                List<String> tag = new ArrayList<>(List.of(String.valueOf("tepdx".charAt(r.nextInt(5))), text(r)));
                if (r.nextBoolean()) {
                    tag.add(text(r));
                }
                tags.add(tag);
            }
            long createdAt = r.nextInt(3) == 0 ? r.nextInt(10) : 1_700_000_000L + r.nextInt(1_000_000);
            events.add(k.sign(createdAt, r.nextInt(65536), tags, text(r)));
        }
        // 20 with a flipped content, which must fail verifyEvent
        List<Event> tampered = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Event e = events.get(i);
            tampered.add(Event.of(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content() + "!", e.sig()));
        }
        List<Event> all = new ArrayList<>(events);
        all.addAll(tampered);
        StringBuilder input = new StringBuilder();
        for (Event e : all) {
            input.append(new String(e.json(), StandardCharsets.UTF_8)).append('\n');
        }
        List<String> out = node(input.toString(), "verify");
        assertThat(out).hasSize(all.size());
        EventHasher hasher = new EventHasher();
        for (int i = 0; i < all.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> answer = (Map<String, Object>) TestJson.parse(out.get(i));
            Event e = all.get(i);
            boolean isTampered = i >= events.size();
            String ternId = isTampered
                    ? io.tern.nostr.event.Hex.encode(
                            hasher.id(e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content()))
                    : e.id();
            assertThat(answer.get("id")).as("id of event %d", i).isEqualTo(ternId);
            assertThat(answer.get("valid")).as("verifyEvent of event %d", i).isEqualTo(!isTampered);
        }
    }

    @Test
    void ternAcceptsWhatNostrToolsSigns() throws Exception {
        List<String> lines = node("", "generate", "300");
        assertThat(lines).hasSize(300);
        EventHasher hasher = new EventHasher();
        BouncyCastleSchnorrVerifier bc = new BouncyCastleSchnorrVerifier();
        for (String line : lines) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            try (var p = Json.parser(b, 0, b.length)) {
                p.nextToken();
                ParsedEvent parsed = EventParser.parse(p);
                assertThat(parsed.error()).as(line).isNull();
                Event e = parsed.event();
                assertThat(hasher.idMatches(e)).as(line).isTrue();
                assertThat(Keys.secp().verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes()))
                        .isTrue();
                assertThat(bc.verify(e.sigBytes(), e.idBytes(), e.pubkeyBytes()))
                        .isTrue();
            }
        }
    }

    private List<String> node(String stdin, String... args) throws IOException, InterruptedException {
        Path in = dir.resolve("in.jsonl");
        Path outFile = dir.resolve("out.jsonl");
        Files.writeString(in, stdin, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(
                List.of("node", NodePeer.DIR.resolve("crosscheck.mjs").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(NodePeer.DIR.toFile())
                .redirectInput(in.toFile())
                .redirectOutput(outFile.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("node did not finish in 120 s");
        }
        assertThat(p.exitValue()).as("node exit status").isZero();
        return Files.readAllLines(outFile, StandardCharsets.UTF_8);
    }
}
