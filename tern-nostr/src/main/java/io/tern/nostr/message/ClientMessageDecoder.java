package io.tern.nostr.message;

import io.tern.nostr.event.EventParser;
import io.tern.nostr.event.ParsedEvent;
import io.tern.nostr.filter.Filter;
import io.tern.nostr.filter.FilterParser;
import io.tern.nostr.json.Json;
import io.tern.nostr.message.ClientMessage.Answer;
import io.tern.nostr.message.ClientMessage.Invalid;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * Turns one text message into a {@link ClientMessage}. Never throws for bad input: malformed JSON,
 * wrong types, unknown verbs and trailing data all become an {@link Invalid} that says how to
 * answer (OK when the event id is known, CLOSED when the subscription id is, NOTICE otherwise).
 * Size is bounded by the caller; nesting depth by {@link Json}.
 */
public final class ClientMessageDecoder {
    private final int maxFilters;
    private final int maxSubscriptionIdLength;

    public ClientMessageDecoder(int maxFilters, int maxSubscriptionIdLength) {
        this.maxFilters = maxFilters;
        this.maxSubscriptionIdLength = maxSubscriptionIdLength;
    }

    public ClientMessage decode(byte[] utf8, int offset, int length) {
        // Set as soon as an id is known, so that a later JSON error is still answered in context.
        String[] context = new String[2];
        try (JsonParser p = Json.parser(utf8, offset, length)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return notice("invalid: a message must be a JSON array");
            }
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                return notice("invalid: a message must start with its type as a string");
            }
            String verb = p.getString();
            return switch (verb) {
                case "EVENT" -> complete(p, event(p, false, context), context);
                case "AUTH" -> complete(p, event(p, true, context), context);
                case "CLOSE" -> complete(p, close(p), context);
                case "REQ" -> filters(p, false, context);
                case "COUNT" -> filters(p, true, context);
                default -> notice("invalid: unknown message type " + shortened(verb));
            };
        } catch (JacksonException e) {
            return inContext(context, "invalid: malformed JSON");
        }
    }

    private ClientMessage event(JsonParser p, boolean auth, String[] context) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return notice("invalid: " + (auth ? "AUTH" : "EVENT") + " must carry an event object");
        }
        ParsedEvent parsed = EventParser.parse(p);
        if (!parsed.isValid()) {
            return parsed.id() != null
                    ? new Invalid(Answer.OK, parsed.id(), "invalid: " + parsed.error())
                    : notice("invalid: " + parsed.error());
        }
        context[0] = "OK";
        context[1] = parsed.id();
        return auth ? new ClientMessage.Auth(parsed.event()) : new ClientMessage.EventMessage(parsed.event());
    }

    private ClientMessage filters(JsonParser p, boolean count, String[] context) {
        String subscriptionId = subscriptionId(p);
        if (subscriptionId == null) {
            return notice(
                    "invalid: a subscription id must be a string of 1 to " + maxSubscriptionIdLength + " characters");
        }
        context[0] = "CLOSED";
        context[1] = subscriptionId;
        List<Filter> filters = new ArrayList<>(2);
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            if (filters.size() == maxFilters) {
                return new Invalid(
                        Answer.CLOSED, subscriptionId, "invalid: too many filters (at most " + maxFilters + ")");
            }
            FilterParser.Result r = FilterParser.parse(p);
            if (r.error() != null) {
                return new Invalid(Answer.CLOSED, subscriptionId, "invalid: " + r.error());
            }
            filters.add(r.filter());
        }
        if (t != JsonToken.END_ARRAY) {
            return new Invalid(Answer.CLOSED, subscriptionId, "invalid: filters must be objects");
        }
        if (filters.isEmpty()) {
            return new Invalid(Answer.CLOSED, subscriptionId, "invalid: at least one filter is required");
        }
        if (p.nextToken() != null) {
            return new Invalid(Answer.CLOSED, subscriptionId, "invalid: unexpected data after the message");
        }
        return count
                ? new ClientMessage.Count(subscriptionId, List.copyOf(filters))
                : new ClientMessage.Req(subscriptionId, List.copyOf(filters));
    }

    /** A message that ends after {@code m}'s last element: its closing bracket, then nothing. */
    private static ClientMessage complete(JsonParser p, ClientMessage m, String[] context) {
        if (m instanceof Invalid) {
            return m;
        }
        if (p.nextToken() != JsonToken.END_ARRAY || p.nextToken() != null) {
            return inContext(context, "invalid: unexpected data after the message");
        }
        return m;
    }

    private ClientMessage close(JsonParser p) {
        String subscriptionId = subscriptionId(p);
        if (subscriptionId == null) {
            return notice(
                    "invalid: a subscription id must be a string of 1 to " + maxSubscriptionIdLength + " characters");
        }
        return new ClientMessage.Close(subscriptionId);
    }

    private String subscriptionId(JsonParser p) {
        if (p.nextToken() != JsonToken.VALUE_STRING) {
            return null;
        }
        String id = p.getString();
        int chars = id.codePointCount(0, id.length());
        return chars >= 1 && chars <= maxSubscriptionIdLength ? id : null;
    }

    private static Invalid inContext(String[] context, String reason) {
        if ("OK".equals(context[0])) {
            return new Invalid(Answer.OK, context[1], reason);
        }
        if ("CLOSED".equals(context[0])) {
            return new Invalid(Answer.CLOSED, context[1], reason);
        }
        return notice(reason);
    }

    private static Invalid notice(String reason) {
        return new Invalid(Answer.NOTICE, null, reason);
    }

    private static String shortened(String verb) {
        return "\"" + (verb.length() > 16 ? verb.substring(0, 16) + "..." : verb) + "\"";
    }
}
