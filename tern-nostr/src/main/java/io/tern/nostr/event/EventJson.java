package io.tern.nostr.event;

import io.tern.nostr.json.JsonWriter;
import java.util.List;

/** Event serialisations: NIP-01's canonical array (hashed into the id) and the wire object. */
public final class EventJson {
    private EventJson() {}

    /** {@code [0,"<pubkey>",<created_at>,<kind>,<tags>,"<content>"]}, no whitespace. */
    public static void writeCanonical(
            JsonWriter w, String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        w.ascii("[0,\"")
                .ascii(pubkey)
                .ascii("\",")
                .number(createdAt)
                .raw(',')
                .number(kind)
                .raw(',');
        writeTags(w, tags);
        w.raw(',').string(content).raw(']');
    }

    /** The event object in NIP-01's field order, with the same string escapes. */
    public static void writeEvent(JsonWriter w, Event e) {
        w.ascii("{\"id\":\"").ascii(e.id());
        w.ascii("\",\"pubkey\":\"").ascii(e.pubkey());
        w.ascii("\",\"created_at\":").number(e.createdAt());
        w.ascii(",\"kind\":").number(e.kind());
        w.ascii(",\"tags\":");
        writeTags(w, e.tags());
        w.ascii(",\"content\":").string(e.content());
        w.ascii(",\"sig\":\"").ascii(e.sig()).ascii("\"}");
    }

    static void writeTags(JsonWriter w, List<List<String>> tags) {
        w.raw('[');
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) {
                w.raw(',');
            }
            List<String> tag = tags.get(i);
            w.raw('[');
            for (int j = 0; j < tag.size(); j++) {
                if (j > 0) {
                    w.raw(',');
                }
                w.string(tag.get(j));
            }
            w.raw(']');
        }
        w.raw(']');
    }
}
