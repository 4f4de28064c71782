package io.tern.nostr.filter;

import io.tern.nostr.event.Hex;
import io.tern.nostr.event.KindClass;
import io.tern.nostr.event.Tags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Reads a filter object. Strict: {@code ids}, {@code authors}, {@code #e} and {@code #p} hold exact
 * 64-character lowercase hex (NIP-01), kinds are 0–65535, since/until/limit non-negative integers,
 * tag keys {@code #} plus one letter, and an unknown or repeated key is an error (ignoring, say, a
 * NIP-50 {@code search} would answer with events it does not select).
 */
public final class FilterParser {
    private FilterParser() {}

    /** A filter, or why the object is not one. */
    public record Result(Filter filter, String error) {}

    /** Parses the object that starts at the parser's current token ({@code START_OBJECT}). */
    public static Result parse(JsonParser p) {
        Set<String> ids = null;
        Set<String> authors = null;
        int[] kinds = null;
        List<TagCondition> tags = new ArrayList<>(2);
        long since = -1;
        long until = -1;
        long limit = -1;
        Set<String> seen = new HashSet<>(8);
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (!seen.add(name)) {
                return error("duplicate filter field " + name);
            }
            switch (name) {
                case "ids" -> {
                    ids = hexList(p, v);
                    if (ids == null) {
                        return error("ids must be an array of 64-character lowercase hex ids");
                    }
                }
                case "authors" -> {
                    authors = hexList(p, v);
                    if (authors == null) {
                        return error("authors must be an array of 64-character lowercase hex pubkeys");
                    }
                }
                case "kinds" -> {
                    kinds = kindList(p, v);
                    if (kinds == null) {
                        return error("kinds must be an array of integers between 0 and 65535");
                    }
                }
                case "since" -> {
                    since = integer(p, v);
                    if (since < 0) {
                        return error("since must be a non-negative integer");
                    }
                }
                case "until" -> {
                    until = integer(p, v);
                    if (until < 0) {
                        return error("until must be a non-negative integer");
                    }
                }
                case "limit" -> {
                    limit = integer(p, v);
                    if (limit < 0) {
                        return error("limit must be a non-negative integer");
                    }
                }
                default -> {
                    if (name.length() != 2 || name.charAt(0) != '#' || !Tags.isTagLetter(name.charAt(1))) {
                        return error("unsupported filter field " + quoted(name));
                    }
                    char letter = name.charAt(1);
                    Set<String> values = letter == 'e' || letter == 'p' ? hexList(p, v) : stringList(p, v);
                    if (values == null) {
                        return error(name
                                + (letter == 'e' || letter == 'p'
                                        ? " must be an array of 64-character lowercase hex values"
                                        : " must be an array of strings"));
                    }
                    tags.add(new TagCondition(letter, values));
                }
            }
        }
        if (t != JsonToken.END_OBJECT) {
            return error("malformed filter");
        }
        return new Result(
                new Filter(
                        ids,
                        authors,
                        kinds,
                        tags,
                        since < 0 ? 0 : since,
                        until < 0 ? Long.MAX_VALUE : until,
                        limit < 0 ? Filter.NO_LIMIT : (int) Math.min(limit, Integer.MAX_VALUE)),
                null);
    }

    private static Result error(String message) {
        return new Result(null, message);
    }

    private static Set<String> hexList(JsonParser p, JsonToken v) {
        Set<String> values = stringList(p, v);
        if (values == null) {
            return null;
        }
        for (String s : values) {
            if (!Hex.isLowerHex(s, 64)) {
                return null;
            }
        }
        return values;
    }

    private static Set<String> stringList(JsonParser p, JsonToken v) {
        if (v != JsonToken.START_ARRAY) {
            return null;
        }
        Set<String> values = new HashSet<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
            values.add(p.getString());
        }
        return t == JsonToken.END_ARRAY ? values : null;
    }

    private static int[] kindList(JsonParser p, JsonToken v) {
        if (v != JsonToken.START_ARRAY) {
            return null;
        }
        int[] kinds = new int[8];
        int n = 0;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.VALUE_NUMBER_INT) {
            long k = integer(p, t);
            if (k < 0 || k > KindClass.MAX_KIND) {
                return null;
            }
            if (n == kinds.length) {
                kinds = java.util.Arrays.copyOf(kinds, n * 2);
            }
            kinds[n++] = (int) k;
        }
        return t == JsonToken.END_ARRAY ? java.util.Arrays.copyOf(kinds, n) : null;
    }

    private static long integer(JsonParser p, JsonToken v) {
        if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return -1;
        }
        long value = p.getLongValue();
        return value < 0 ? -1 : value;
    }

    private static String quoted(String name) {
        return name.length() > 32 ? "\"" + name.substring(0, 32) + "...\"" : "\"" + name + "\"";
    }
}
