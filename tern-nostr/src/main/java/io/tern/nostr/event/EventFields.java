package io.tern.nostr.event;

import java.util.List;

/** The form NIP-01 requires of each event field, shared by the parser and {@link Event#of}. */
final class EventFields {
    /** Largest integer a JavaScript client can hold exactly; NIP-01 numbers are read as such. */
    static final long MAX_CREATED_AT = (1L << 53) - 1;

    private EventFields() {}

    static String idProblem(String id) {
        return Hex.isLowerHex(id, 64) ? null : "id must be 64 lowercase hex characters";
    }

    static String pubkeyProblem(String pubkey) {
        return Hex.isLowerHex(pubkey, 64) ? null : "pubkey must be 64 lowercase hex characters";
    }

    static String sigProblem(String sig) {
        return Hex.isLowerHex(sig, 128) ? null : "sig must be 128 lowercase hex characters";
    }

    static String createdAtProblem(long createdAt) {
        return createdAt >= 0 && createdAt <= MAX_CREATED_AT ? null : "created_at out of range";
    }

    static String kindProblem(long kind) {
        return kind >= 0 && kind <= KindClass.MAX_KIND ? null : "kind must be between 0 and 65535";
    }

    static String tagsProblem(List<List<String>> tags) {
        if (tags == null) {
            return "tags must be an array";
        }
        for (List<String> tag : tags) {
            if (tag == null || tag.isEmpty()) {
                return "each tag must be an array of one or more strings";
            }
            for (String s : tag) {
                if (s == null) {
                    return "tag elements must be strings";
                }
            }
        }
        return Tags.expiration(tags) == Tags.MALFORMED ? "expiration tag must hold a Unix time" : null;
    }

    static String problem(
            String id, String pubkey, long createdAt, int kind, List<List<String>> tags, String content, String sig) {
        String p = idProblem(id);
        if (p == null) {
            p = pubkeyProblem(pubkey);
        }
        if (p == null) {
            p = createdAtProblem(createdAt);
        }
        if (p == null) {
            p = kindProblem(kind);
        }
        if (p == null) {
            p = tagsProblem(tags);
        }
        if (p == null && content == null) {
            p = "content must be a string";
        }
        if (p == null) {
            p = sigProblem(sig);
        }
        return p;
    }
}
