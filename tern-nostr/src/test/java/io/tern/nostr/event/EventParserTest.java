package io.tern.nostr.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.nostr.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.JacksonException;

class EventParserTest {
    static final String ID = "a".repeat(64);
    static final String PK = "b".repeat(64);
    static final String SIG = "c".repeat(128);

    static String event(
            String id, String pubkey, String createdAt, String kind, String tags, String content, String sig) {
        return "{\"id\":" + id + ",\"pubkey\":" + pubkey + ",\"created_at\":" + createdAt + ",\"kind\":" + kind
                + ",\"tags\":" + tags + ",\"content\":" + content + ",\"sig\":" + sig + "}";
    }

    static String valid() {
        return event(q(ID), q(PK), "1700000000", "1", "[[\"e\",\"x\"],[\"t\"]]", q("hello"), q(SIG));
    }

    static String q(String s) {
        return "\"" + s + "\"";
    }

    static ParsedEvent parse(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        try (var p = Json.parser(b, 0, b.length)) {
            p.nextToken();
            return EventParser.parse(p);
        }
    }

    @Test
    void readsAWellFormedEvent() {
        ParsedEvent r = parse(valid());
        assertThat(r.error()).isNull();
        Event e = r.event();
        assertThat(e.id()).isEqualTo(ID);
        assertThat(e.pubkey()).isEqualTo(PK);
        assertThat(e.sig()).isEqualTo(SIG);
        assertThat(e.createdAt()).isEqualTo(1_700_000_000L);
        assertThat(e.kind()).isEqualTo(1);
        assertThat(e.tags()).containsExactly(List.of("e", "x"), List.of("t"));
        assertThat(e.content()).isEqualTo("hello");
        assertThat(e.expiration()).isEqualTo(-1);
    }

    @Test
    void fieldsMayComeInAnyOrderAndUnknownFieldsAreSkipped() {
        String json = "{\"sig\":" + q(SIG) + ",\"extra\":{\"nested\":[1,2,{}]},\"content\":\"\",\"tags\":[],"
                + "\"kind\":7,\"created_at\":0,\"pubkey\":" + q(PK) + ",\"id\":" + q(ID) + "}";
        ParsedEvent r = parse(json);
        assertThat(r.error()).isNull();
        assertThat(r.event().kind()).isEqualTo(7);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "uppercase id|id|\"" + "A"
                        + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"|id must be 64",
                "short pubkey|pubkey|\"bbbb\"|pubkey must be 64",
                "sig not hex|sig|\"" + "g" + "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
                        + "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\"|sig must be 128",
                "fractional created_at|created_at|1.5|created_at must be a non-negative integer",
                "exponent created_at|created_at|1e9|created_at must be a non-negative integer",
                "negative created_at|created_at|-1|created_at must be a non-negative integer",
                "string created_at|created_at|\"1700000000\"|created_at must be a non-negative integer",
                "huge created_at|created_at|123456789012345678901234567890|created_at must be a non-negative integer",
                "created_at past 2^53|created_at|9007199254740992|created_at out of range",
                "kind too large|kind|65536|kind must be between 0 and 65535",
                "negative kind|kind|-1|kind must be between 0 and 65535",
                "kind as string|kind|\"1\"|kind must be between 0 and 65535",
                "tags not an array|tags|{}|tags must be an array",
                "tag not an array|tags|[\"e\"]|each tag must be an array of strings",
                "tag with a number|tags|[[\"e\",1]]|tag elements must be strings",
                "tag with null|tags|[[\"e\",null]]|tag elements must be strings",
                "empty tag|tags|[[]]|each tag must be an array of one or more strings",
                "malformed expiration|tags|[[\"expiration\",\"soon\"]]|expiration tag must hold a Unix time",
                "content not a string|content|42|content must be a string",
            })
    void rejectsMalformedFieldsNamingThem(String name, String field, String value, String message) {
        ParsedEvent r = parse(with(field, value));
        assertThat(r.event()).isNull();
        assertThat(r.error()).startsWith(message);
    }

    /** The valid event with one field's JSON replaced. */
    static String with(String field, String value) {
        java.util.Map<String, String> f = new java.util.LinkedHashMap<>();
        f.put("id", q(ID));
        f.put("pubkey", q(PK));
        f.put("created_at", "1700000000");
        f.put("kind", "1");
        f.put("tags", "[[\"e\",\"x\"],[\"t\"]]");
        f.put("content", q("hello"));
        f.put("sig", q(SIG));
        f.put(field, value);
        return event(
                f.get("id"),
                f.get("pubkey"),
                f.get("created_at"),
                f.get("kind"),
                f.get("tags"),
                f.get("content"),
                f.get("sig"));
    }

    @Test
    void anInvalidEventStillReportsItsIdWhenTheIdIsFine() {
        ParsedEvent r = parse(event(q(ID), q(PK), "1", "70000", "[]", "\"\"", q(SIG)));
        assertThat(r.error()).contains("kind");
        assertThat(r.id()).isEqualTo(ID);
        // ...even when the id comes after the bad field
        ParsedEvent later = parse("{\"kind\":\"x\",\"id\":" + q(ID) + "}");
        assertThat(later.id()).isEqualTo(ID);
        assertThat(later.error()).contains("kind");
    }

    @Test
    void aBadIdIsNotReported() {
        ParsedEvent r = parse(event(q("xyz"), q(PK), "1", "1", "[]", "\"\"", q(SIG)));
        assertThat(r.id()).isNull();
    }

    @Test
    void missingAndDuplicateFields() {
        assertThat(parse("{\"id\":" + q(ID) + "}").error()).isEqualTo("missing field pubkey");
        assertThat(parse(valid().replace("{\"id\"", "{\"kind\":1,\"id\"")).error())
                .isEqualTo("duplicate field kind");
    }

    @Test
    void malformedJsonThrowsForTheDecoderToAnswer() {
        assertThatThrownBy(() -> parse("{\"id\":\"a\",")).isInstanceOf(JacksonException.class);
        assertThatThrownBy(() -> parse("{\"tags\":[[\"a\"")).isInstanceOf(JacksonException.class);
    }

    @Test
    void expirationAndAddress() {
        ParsedEvent r = parse(event(q(ID), q(PK), "5", "30000", "[[\"expiration\",\"1700000000\"]]", "\"\"", q(SIG)));
        assertThat(r.event().expiration()).isEqualTo(1_700_000_000L);
        assertThat(r.event().dTag()).isEmpty();
        assertThat(r.event().address()).isEqualTo("30000:" + PK + ":");
        ParsedEvent regular = parse(event(q(ID), q(PK), "5", "1", "[[\"d\",\"x\"]]", "\"\"", q(SIG)));
        assertThat(regular.event().address()).isNull();
        ParsedEvent replaceable = parse(event(q(ID), q(PK), "5", "10002", "[[\"d\",\"x\"]]", "\"\"", q(SIG)));
        assertThat(replaceable.event().address()).isEqualTo("10002:" + PK + ":");
    }

    @Test
    void kindClasses() {
        assertThat(KindClass.of(0)).isEqualTo(KindClass.REPLACEABLE);
        assertThat(KindClass.of(1)).isEqualTo(KindClass.REGULAR);
        assertThat(KindClass.of(3)).isEqualTo(KindClass.REPLACEABLE);
        assertThat(KindClass.of(9999)).isEqualTo(KindClass.REGULAR);
        assertThat(KindClass.of(10000)).isEqualTo(KindClass.REPLACEABLE);
        assertThat(KindClass.of(19999)).isEqualTo(KindClass.REPLACEABLE);
        assertThat(KindClass.of(20000)).isEqualTo(KindClass.EPHEMERAL);
        assertThat(KindClass.of(29999)).isEqualTo(KindClass.EPHEMERAL);
        assertThat(KindClass.of(30000)).isEqualTo(KindClass.ADDRESSABLE);
        assertThat(KindClass.of(39999)).isEqualTo(KindClass.ADDRESSABLE);
        assertThat(KindClass.of(40000)).isEqualTo(KindClass.REGULAR);
    }
}
