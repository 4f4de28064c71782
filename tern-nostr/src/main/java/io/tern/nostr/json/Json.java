package io.tern.nostr.json;

import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/** The one jackson-core configuration Tern reads Nostr JSON with: strict JSON, bounded nesting. */
public final class Json {
    /**
     * The deepest Nostr message is {@code ["REQ", id, {"#e": [..]}]} or an event's tags: four levels.
     * Anything deeper is not a Nostr message, and a shallow bound keeps a hostile one cheap to reject.
     */
    public static final int MAX_DEPTH = 6;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(32)
                    .build())
            .build();

    private Json() {}

    /** A parser over UTF-8 JSON; the caller closes it. */
    public static JsonParser parser(byte[] utf8, int offset, int length) {
        return FACTORY.createParser(ObjectReadContext.empty(), utf8, offset, length);
    }
}
