package io.tern.nostr.event;

import io.tern.nostr.json.JsonWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Computes event ids: SHA-256 over the canonical serialisation. Keeps its digest and buffer between
 * calls, so one instance per thread hashes without allocating beyond the result.
 */
public final class EventHasher {
    private final MessageDigest sha256;
    private final JsonWriter writer = new JsonWriter(4096);
    private final byte[] digest = new byte[32];

    public EventHasher() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK must provide SHA-256", e);
        }
    }

    /** The id these fields hash to, as 32 new bytes. */
    public byte[] id(String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        hashInto(pubkey, createdAt, kind, tags, content);
        return digest.clone();
    }

    /** True when the event's id is the hash of its fields. */
    public boolean idMatches(Event e) {
        hashInto(e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content());
        return MessageDigest.isEqual(digest, e.idBytes());
    }

    private void hashInto(String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        EventJson.writeCanonical(writer.reset(), pubkey, createdAt, kind, tags, content);
        sha256.update(writer.array(), 0, writer.length());
        try {
            sha256.digest(digest, 0, 32);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }
}
