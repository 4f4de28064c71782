package io.tern.nostr.event;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Reads an event object with jackson-core's streaming parser and checks each field's form:
 * lowercase hex of the right length, integers in range (no fractions, exponents or signs), tags
 * as arrays of one or more strings, no field twice. Unknown fields are skipped: they are not part
 * of the id, and Tern never stores or forwards them.
 *
 * <p>On a bad field the parser records the first problem and reads on, so that an id appearing
 * later in the object can still be named in the answer. Malformed JSON throws
 * {@link JacksonException}; the message decoder turns that into an answer.
 */
public final class EventParser {
    private static final int ID = 1;
    private static final int PUBKEY = 2;
    private static final int CREATED_AT = 4;
    private static final int KIND = 8;
    private static final int TAGS = 16;
    private static final int CONTENT = 32;
    private static final int SIG = 64;
    private static final int ALL = 127;

    private EventParser() {}

    /**
     * An event's wire JSON as another node of a fleet stored or sent it (the bus carries it so),
     * parsed, its id and signature not checked again; the bytes become the event's {@link
     * Event#json()}. Never throws: malformed JSON gives a {@link ParsedEvent} with an error.
     */
    public static ParsedEvent parseWire(byte[] json) {
        try (JsonParser p = io.tern.nostr.json.Json.parser(json, 0, json.length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new ParsedEvent(null, "an event must be a JSON object", null);
            }
            ParsedEvent parsed = parse(p);
            if (parsed.isValid()) {
                parsed.event().adoptJson(json);
            }
            return parsed;
        } catch (tools.jackson.core.JacksonException e) {
            return new ParsedEvent(null, "malformed JSON", null);
        }
    }

    /** Parses the object that starts at the parser's current token ({@code START_OBJECT}). */
    public static ParsedEvent parse(JsonParser p) {
        String id = null;
        String pubkey = null;
        String sig = null;
        String content = null;
        long createdAt = -1;
        long kind = -1;
        List<List<String>> tags = null;
        int seen = 0;
        String error = null;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
            if (t != JsonToken.PROPERTY_NAME) {
                throw unexpectedEnd(p);
            }
            String name = p.currentName();
            JsonToken v = p.nextToken();
            int bit = bit(name);
            if (bit != 0 && (seen & bit) != 0) {
                error = first(error, "duplicate field " + name);
                p.skipChildren();
                continue;
            }
            seen |= bit;
            String problem = null;
            switch (bit) {
                case ID -> {
                    String s = stringOrNull(p, v);
                    problem = EventFields.idProblem(s);
                    id = problem == null ? s : null;
                }
                case PUBKEY -> {
                    pubkey = stringOrNull(p, v);
                    problem = EventFields.pubkeyProblem(pubkey);
                }
                case SIG -> {
                    sig = stringOrNull(p, v);
                    problem = EventFields.sigProblem(sig);
                }
                case CONTENT -> {
                    content = stringOrNull(p, v);
                    problem = content == null ? "content must be a string" : null;
                }
                case CREATED_AT -> {
                    createdAt = integer(p, v);
                    problem = createdAt < 0 ? "created_at must be a non-negative integer" : null;
                    if (problem == null) {
                        problem = EventFields.createdAtProblem(createdAt);
                    }
                }
                case KIND -> {
                    kind = integer(p, v);
                    problem = EventFields.kindProblem(kind);
                }
                case TAGS -> {
                    if (v == JsonToken.START_ARRAY) {
                        tags = new ArrayList<>();
                        problem = readTags(p, tags);
                        if (problem == null) {
                            problem = EventFields.tagsProblem(tags);
                        }
                    } else {
                        p.skipChildren();
                        problem = "tags must be an array";
                    }
                }
                default -> p.skipChildren();
            }
            error = first(error, problem);
        }
        if (error == null && seen != ALL) {
            error = "missing field " + missing(seen);
        }
        if (error != null) {
            return ParsedEvent.invalid(error, id);
        }
        return ParsedEvent.ok(
                Event.trusted(id, pubkey, createdAt, (int) kind, Collections.unmodifiableList(tags), content, sig));
    }

    private static String readTags(JsonParser p, List<List<String>> tags) {
        String problem = null;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_ARRAY) {
                if (t == null) {
                    throw unexpectedEnd(p);
                }
                p.skipChildren();
                problem = first(problem, "each tag must be an array of strings");
                continue;
            }
            List<String> tag = new ArrayList<>(3);
            JsonToken u;
            while ((u = p.nextToken()) != JsonToken.END_ARRAY) {
                if (u == JsonToken.VALUE_STRING) {
                    tag.add(p.getString());
                } else {
                    if (u == null) {
                        throw unexpectedEnd(p);
                    }
                    p.skipChildren();
                    problem = first(problem, "tag elements must be strings");
                }
            }
            tags.add(Collections.unmodifiableList(tag));
        }
        return problem;
    }

    /** A non-negative integer token's value; -1 for anything else (fractions, negatives, too large). */
    private static long integer(JsonParser p, JsonToken v) {
        if (v != JsonToken.VALUE_NUMBER_INT) {
            p.skipChildren();
            return -1;
        }
        JsonParser.NumberType type = p.getNumberType();
        if (type == JsonParser.NumberType.BIG_INTEGER) {
            return -1;
        }
        long value = p.getLongValue();
        return value < 0 ? -1 : value;
    }

    private static String stringOrNull(JsonParser p, JsonToken v) {
        if (v == JsonToken.VALUE_STRING) {
            return p.getString();
        }
        p.skipChildren();
        return null;
    }

    private static int bit(String name) {
        return switch (name) {
            case "id" -> ID;
            case "pubkey" -> PUBKEY;
            case "created_at" -> CREATED_AT;
            case "kind" -> KIND;
            case "tags" -> TAGS;
            case "content" -> CONTENT;
            case "sig" -> SIG;
            default -> 0;
        };
    }

    private static String missing(int seen) {
        String[] names = {"id", "pubkey", "created_at", "kind", "tags", "content", "sig"};
        for (int i = 0; i < names.length; i++) {
            if ((seen & (1 << i)) == 0) {
                return names[i];
            }
        }
        return "";
    }

    private static String first(String existing, String candidate) {
        return existing != null ? existing : candidate;
    }

    private static JacksonException unexpectedEnd(JsonParser p) {
        return new tools.jackson.core.exc.StreamReadException(p, "unexpected end of event object");
    }
}
