package io.tern.nostr.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.event.Event;
import io.tern.nostr.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterTest {
    static final String A = "a".repeat(64);
    static final String B = "b".repeat(64);

    static Event event(String id, String pubkey, long createdAt, int kind, List<List<String>> tags) {
        return Event.of(id, pubkey, createdAt, kind, tags, "", "0".repeat(128));
    }

    static Filter filter(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        try (var p = Json.parser(b, 0, b.length)) {
            p.nextToken();
            FilterParser.Result r = FilterParser.parse(p);
            assertThat(r.error()).isNull();
            return r.filter();
        }
    }

    private final Event e =
            event(A, B, 100, 1, List.of(List.of("e", A, "wss://x"), List.of("t", "nostr"), List.of("t", "tern")));

    @Test
    void emptyFilterMatchesEverything() {
        assertThat(filter("{}").matches(e)).isTrue();
    }

    @Test
    void eachFieldSelects() {
        assertThat(filter("{\"ids\":[\"" + A + "\"]}").matches(e)).isTrue();
        assertThat(filter("{\"ids\":[\"" + B + "\"]}").matches(e)).isFalse();
        assertThat(filter("{\"authors\":[\"" + A + "\",\"" + B + "\"]}").matches(e))
                .isTrue();
        assertThat(filter("{\"authors\":[\"" + A + "\"]}").matches(e)).isFalse();
        assertThat(filter("{\"kinds\":[0,1]}").matches(e)).isTrue();
        assertThat(filter("{\"kinds\":[2]}").matches(e)).isFalse();
    }

    @Test
    void fieldsAreAndedValuesAreOred() {
        assertThat(filter("{\"kinds\":[1],\"authors\":[\"" + B + "\"]}").matches(e))
                .isTrue();
        assertThat(filter("{\"kinds\":[2],\"authors\":[\"" + B + "\"]}").matches(e))
                .isFalse();
        assertThat(filter("{\"#t\":[\"tern\",\"other\"],\"#e\":[\"" + A + "\"]}")
                        .matches(e))
                .isTrue();
        assertThat(filter("{\"#t\":[\"tern\"],\"#e\":[\"" + B + "\"]}").matches(e))
                .isFalse();
    }

    @Test
    void sinceAndUntilAreInclusive() {
        assertThat(filter("{\"since\":100}").matches(e)).isTrue();
        assertThat(filter("{\"since\":101}").matches(e)).isFalse();
        assertThat(filter("{\"until\":100}").matches(e)).isTrue();
        assertThat(filter("{\"until\":99}").matches(e)).isFalse();
        assertThat(filter("{\"since\":100,\"until\":100}").matches(e)).isTrue();
        assertThat(filter("{\"since\":101,\"until\":100}").isEmpty()).isTrue();
    }

    @Test
    void tagConditionsLookAtTheFirstValueOnly() {
        assertThat(filter("{\"#e\":[\"" + A + "\"]}").matches(e)).isTrue();
        // "wss://x" is the e tag's second value: not selectable
        assertThat(filter("{\"#x\":[\"wss://x\"]}").matches(e)).isFalse();
        assertThat(filter("{\"#t\":[\"nostr\"]}").matches(e)).isTrue();
        // tag letters are case-sensitive
        assertThat(filter("{\"#T\":[\"nostr\"]}").matches(e)).isFalse();
    }

    @Test
    void anEmptyListMatchesNothing() {
        for (String json : List.of("{\"ids\":[]}", "{\"authors\":[]}", "{\"kinds\":[]}", "{\"#t\":[]}")) {
            Filter f = filter(json);
            assertThat(f.matches(e)).as(json).isFalse();
            assertThat(f.isEmpty()).as(json).isTrue();
        }
    }

    @Test
    void limitIsNotAMatchingCondition() {
        assertThat(filter("{\"limit\":0}").matches(e)).isTrue();
        assertThat(filter("{\"limit\":0}").limit()).isZero();
        assertThat(filter("{}").limit()).isEqualTo(Filter.NO_LIMIT);
    }
}
