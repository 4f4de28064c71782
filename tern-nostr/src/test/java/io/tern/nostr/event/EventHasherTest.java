package io.tern.nostr.event;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventHasherTest {
    private static final String PUBKEY = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

    @Test
    void canonicalFormIsNip01sArrayWithoutWhitespace() {
        JsonWriter w = new JsonWriter();
        EventJson.writeCanonical(
                w,
                PUBKEY,
                1_700_000_000L,
                1,
                List.of(List.of("e", "abc", "wss://r.example"), List.of("t", "x")),
                "hi\n\"there\"");
        assertThat(new String(w.toByteArray(), StandardCharsets.UTF_8))
                .isEqualTo("[0,\"" + PUBKEY + "\",1700000000,1,[[\"e\",\"abc\",\"wss://r.example\"],[\"t\",\"x\"]],"
                        + "\"hi\\n\\\"there\\\"\"]");
    }

    @Test
    void emptyTagsAndContent() {
        JsonWriter w = new JsonWriter();
        EventJson.writeCanonical(w, PUBKEY, 0, 0, List.of(), "");
        assertThat(new String(w.toByteArray(), StandardCharsets.UTF_8)).isEqualTo("[0,\"" + PUBKEY + "\",0,0,[],\"\"]");
    }

    @Test
    void idIsSha256OfTheCanonicalForm() throws Exception {
        String canonical = "[0,\"" + PUBKEY + "\",1700000000,1,[[\"p\",\"x\"]],\"tab\\there \\u0001 é\"]";
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
        byte[] id = new EventHasher().id(PUBKEY, 1_700_000_000L, 1, List.of(List.of("p", "x")), "tab\there \u0001 é");
        assertThat(Hex.encode(id)).isEqualTo(Hex.encode(expected));
    }

    @Test
    void idMatchesDetectsAnyChangedField() {
        EventHasher h = new EventHasher();
        byte[] id = h.id(PUBKEY, 5, 1, List.of(), "a");
        String sig = "00".repeat(64);
        assertThat(h.idMatches(Event.of(Hex.encode(id), PUBKEY, 5, 1, List.of(), "a", sig)))
                .isTrue();
        assertThat(h.idMatches(Event.of(Hex.encode(id), PUBKEY, 6, 1, List.of(), "a", sig)))
                .isFalse();
        assertThat(h.idMatches(Event.of(Hex.encode(id), PUBKEY, 5, 2, List.of(), "a", sig)))
                .isFalse();
        assertThat(h.idMatches(Event.of(Hex.encode(id), PUBKEY, 5, 1, List.of(List.of("t")), "a", sig)))
                .isFalse();
        assertThat(h.idMatches(Event.of(Hex.encode(id), PUBKEY, 5, 1, List.of(), "b", sig)))
                .isFalse();
    }

    @Test
    void checkingTheIdMakesTheSameWireJsonAsWritingTheEvent() {
        EventHasher h = new EventHasher();
        java.util.Random r = new java.util.Random(29);
        String[] contents = {"", "plain", "hi\n\"there\" \\ é ✓ \uD83E\uDD85 \u0001\u001f", "x".repeat(5000)};
        for (int i = 0; i < 200; i++) {
            long createdAt = i % 3 == 0 ? i : 1_700_000_000L + r.nextInt(1_000_000);
            int kind = new int[] {0, 1, 7, 25050, 30023, 65535}[i % 6];
            List<List<String>> tags = i % 4 == 0
                    ? List.of()
                    : List.of(List.of("t", "tag\t" + i), List.of("p", PUBKEY, "wss://r.example", "\"q\""));
            String content = contents[i % contents.length];
            String id = Hex.encode(h.id(PUBKEY, createdAt, kind, tags, content));
            Event checked = Event.of(id, PUBKEY, createdAt, kind, tags, content, "cd".repeat(64));
            assertThat(h.idMatches(checked)).isTrue();
            JsonWriter w = new JsonWriter();
            EventJson.writeEvent(w, checked);
            assertThat(new String(checked.json(), StandardCharsets.UTF_8))
                    .as("event %d", i)
                    .isEqualTo(new String(w.toByteArray(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void wireFormRoundTripsThroughTheParser() {
        Event e = Event.of(
                "ab".repeat(32),
                PUBKEY,
                42,
                30023,
                List.of(List.of("d", "slug"), List.of("expiration", "99")),
                "\u0000 \uD83E\uDD85 \\",
                "cd".repeat(64));
        byte[] json = e.json();
        try (var p = io.tern.nostr.json.Json.parser(json, 0, json.length)) {
            p.nextToken();
            ParsedEvent back = EventParser.parse(p);
            assertThat(back.error()).isNull();
            assertThat(back.event().content()).isEqualTo(e.content());
            assertThat(back.event().tags()).isEqualTo(e.tags());
            assertThat(back.event().json()).isEqualTo(json);
            assertThat(back.event().expiration()).isEqualTo(99);
            assertThat(back.event().address()).isEqualTo("30023:" + PUBKEY + ":slug");
        }
    }
}
