package io.tern.nostr.testing;

import io.tern.nostr.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/** Reads JSON into Lists, Maps, Strings, Longs and Booleans, for assertions on relay messages. */
public final class TestJson {
    private TestJson() {}

    public static Object parse(String json) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = Json.parser(b, 0, b.length)) {
            p.nextToken();
            return value(p);
        }
    }

    @SuppressWarnings("unchecked")
    public static List<Object> array(String json) {
        return (List<Object>) parse(json);
    }

    private static Object value(JsonParser p) {
        JsonToken t = p.currentToken();
        switch (t) {
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    list.add(value(p));
                }
                return list;
            }
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    map.put(name, value(p));
                }
                return map;
            }
            case VALUE_STRING -> {
                return p.getString();
            }
            case VALUE_NUMBER_INT -> {
                return p.getLongValue();
            }
            case VALUE_TRUE -> {
                return true;
            }
            case VALUE_FALSE -> {
                return false;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IllegalArgumentException("unexpected " + t);
        }
    }
}
