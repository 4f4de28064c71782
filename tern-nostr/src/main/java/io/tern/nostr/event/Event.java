package io.tern.nostr.event;

import io.tern.nostr.json.JsonWriter;
import java.util.List;

/**
 * A Nostr event (NIP-01) whose fields are well formed. Whether its id and signature are right is
 * checked elsewhere ({@link EventIds}, {@link io.tern.nostr.crypto.SchnorrVerifier}); instances are
 * immutable.
 */
public final class Event implements SerializedEvent {
    private final String id;
    private final String pubkey;
    private final long createdAt;
    private final int kind;
    private final List<List<String>> tags;
    private final String content;
    private final String sig;
    private final byte[] idBytes;
    private final byte[] pubkeyBytes;
    private final byte[] sigBytes;
    private final long expiration;
    private volatile byte[] json;

    private Event(
            String id, String pubkey, long createdAt, int kind, List<List<String>> tags, String content, String sig) {
        this.id = id;
        this.pubkey = pubkey;
        this.createdAt = createdAt;
        this.kind = kind;
        this.tags = tags;
        this.content = content;
        this.sig = sig;
        this.idBytes = Hex.decode(id);
        this.pubkeyBytes = Hex.decode(pubkey);
        this.sigBytes = Hex.decode(sig);
        this.expiration = Tags.expiration(tags);
    }

    /**
     * Builds an event from fields, checking their form (not the id's value nor the signature).
     *
     * @throws IllegalArgumentException naming the first malformed field
     */
    public static Event of(
            String id, String pubkey, long createdAt, int kind, List<List<String>> tags, String content, String sig) {
        String problem = EventFields.problem(id, pubkey, createdAt, kind, tags, content, sig);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return new Event(id, pubkey, createdAt, kind, Tags.copyOf(tags), content, sig);
    }

    /** For {@link EventParser}, which has checked every field already. */
    static Event trusted(
            String id, String pubkey, long createdAt, int kind, List<List<String>> tags, String content, String sig) {
        return new Event(id, pubkey, createdAt, kind, tags, content, sig);
    }

    @Override
    public String id() {
        return id;
    }

    public String pubkey() {
        return pubkey;
    }

    @Override
    public long createdAt() {
        return createdAt;
    }

    public int kind() {
        return kind;
    }

    /** Immutable. */
    public List<List<String>> tags() {
        return tags;
    }

    public String content() {
        return content;
    }

    public String sig() {
        return sig;
    }

    /** The 32-byte id; shared, do not modify. */
    public byte[] idBytes() {
        return idBytes;
    }

    /** The 32-byte x-only public key; shared, do not modify. */
    public byte[] pubkeyBytes() {
        return pubkeyBytes;
    }

    /** The 64-byte BIP-340 signature; shared, do not modify. */
    public byte[] sigBytes() {
        return sigBytes;
    }

    public KindClass kindClass() {
        return KindClass.of(kind);
    }

    /** NIP-40 expiration in Unix seconds, or -1 when the event has none. */
    public long expiration() {
        return expiration;
    }

    /** True when the event has a NIP-40 expiration at or before {@code epochSeconds}. */
    public boolean isExpiredAt(long epochSeconds) {
        return expiration >= 0 && expiration <= epochSeconds;
    }

    /** The first value of the first {@code d} tag, or "" (NIP-01: a missing or empty d is ""). */
    public String dTag() {
        return Tags.firstValue(tags, "d", "");
    }

    /**
     * {@code kind:pubkey:d} for replaceable and addressable events (d is "" for replaceable ones),
     * the key that keeps one event; null for other kinds.
     */
    public String address() {
        KindClass kc = kindClass();
        if (!kc.hasAddress()) {
            return null;
        }
        return kind + ":" + pubkey + ":" + (kc == KindClass.ADDRESSABLE ? dTag() : "");
    }

    @Override
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            JsonWriter w = new JsonWriter(content.length() + 64 * tags.size() + 320);
            EventJson.writeEvent(w, this);
            j = w.toByteArray();
            json = j;
        }
        return j;
    }

    boolean hasJson() {
        return json != null;
    }

    /** Takes {@code wire} as {@link #json()} unless it is already made ({@link EventHasher}'s by-product). */
    void adoptJson(byte[] wire) {
        if (json == null) {
            json = wire;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Event e && e.id.equals(id) && e.sig.equals(sig);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "Event{id=" + id + ", kind=" + kind + ", pubkey=" + pubkey + ", created_at=" + createdAt + "}";
    }
}
