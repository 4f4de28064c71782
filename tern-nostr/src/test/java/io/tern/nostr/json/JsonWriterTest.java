package io.tern.nostr.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonWriterTest {
    private static String str(String s) {
        return new String(new JsonWriter().string(s).toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void escapesTheSevenNamedCharactersByName() {
        assertThat(str("a\nb\"c\\d\re\tf\bg\fh")).isEqualTo("\"a\\nb\\\"c\\\\d\\re\\tf\\bg\\fh\"");
    }

    @Test
    void escapesOtherControlCharactersAsLowercaseUnicodeEscapes() {
        assertThat(str("\u0000\u0001\u001f\u000b")).isEqualTo("\"\\u0000\\u0001\\u001f\\u000b\"");
    }

    @Test
    void leavesEverythingElseVerbatim() {
        assertThat(str("/ \u007f <>&' é ✓")).isEqualTo("\"/ \u007f <>&' é ✓\"");
        assertThat(new JsonWriter().string("é✓").toByteArray()).isEqualTo("\"é✓\"".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void writesSupplementaryCharactersAsFourByteUtf8() {
        String s = "\uD83E\uDD85"; // U+1F985
        assertThat(new JsonWriter().string(s).toByteArray())
                .containsExactly('"', 0xF0 - 256, 0x9F - 256, 0xA6 - 256, 0x85 - 256, '"');
    }

    @Test
    void escapesLoneSurrogatesAsJavaScriptDoes() {
        assertThat(str("a\uD800b")).isEqualTo("\"a\\ud800b\"");
        assertThat(str("\uDC00")).isEqualTo("\"\\udc00\"");
        assertThat(str("\uDC00\uD800")).isEqualTo("\"\\udc00\\ud800\"");
    }

    @Test
    void writesIntegers() {
        JsonWriter w = new JsonWriter(16);
        w.number(0)
                .raw(',')
                .number(7)
                .raw(',')
                .number(1_700_000_000L)
                .raw(',')
                .number(-42)
                .raw(',');
        w.number(Long.MIN_VALUE);
        assertThat(new String(w.toByteArray(), StandardCharsets.US_ASCII))
                .isEqualTo("0,7,1700000000,-42,-9223372036854775808");
    }

    @Test
    void growsPastItsInitialCapacity() {
        String big = "x".repeat(100_000);
        assertThat(new JsonWriter(16).string(big).length()).isEqualTo(100_002);
    }
}
