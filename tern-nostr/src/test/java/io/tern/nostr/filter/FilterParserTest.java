package io.tern.nostr.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.nostr.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterParserTest {
    static final String HEX = "a".repeat(64);

    static FilterParser.Result parse(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        try (var p = Json.parser(b, 0, b.length)) {
            p.nextToken();
            return FilterParser.parse(p);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"ids\":[\"abc\"]}|ids must be",
                "{\"ids\":\"" + "aaaa\"}|ids must be",
                "{\"ids\":[\"" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"]}|ids must be",
                "{\"authors\":[1]}|authors must be",
                "{\"kinds\":[1.5]}|kinds must be",
                "{\"kinds\":[65536]}|kinds must be",
                "{\"kinds\":[-1]}|kinds must be",
                "{\"kinds\":[\"1\"]}|kinds must be",
                "{\"since\":-5}|since must be",
                "{\"until\":\"now\"}|until must be",
                "{\"limit\":1e3}|limit must be",
                "{\"#e\":[\"not-hex\"]}|#e must be an array of 64-character lowercase hex",
                "{\"#p\":[\"" + "x\"]}|#p must be an array of 64-character lowercase hex",
                "{\"#t\":[1]}|#t must be an array of strings",
                "{\"#t\":\"x\"}|#t must be an array of strings",
                "{\"#tt\":[\"x\"]}|unsupported filter field \"#tt\"",
                "{\"#1\":[\"x\"]}|unsupported filter field \"#1\"",
                "{\"search\":\"x\"}|unsupported filter field \"search\"",
                "{\"kinds\":[1],\"kinds\":[2]}|duplicate filter field kinds",
            })
    void rejects(String json, String message) {
        FilterParser.Result r = parse(json);
        assertThat(r.filter()).isNull();
        assertThat(r.error()).startsWith(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{}",
                "{\"ids\":[\"" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]}",
                "{\"kinds\":[0,65535],\"since\":0,\"until\":9007199254740991,\"limit\":0}",
                "{\"#t\":[\"any string\",\"\"],\"#A\":[\"x\"]}",
                "{\"#e\":[]}",
            })
    void accepts(String json) {
        assertThat(parse(json).error()).isNull();
    }
}
