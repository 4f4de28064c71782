package io.tern.nostr.event;

import io.tern.nostr.json.JsonWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Computes event ids: SHA-256 over the canonical serialisation. Keeps its digest and buffer between
 * calls, so one instance per thread hashes without allocating beyond the result. Checking an
 * event's id also makes its wire JSON ({@link Event#json()}) from the same escaped bytes, in one
 * array of the exact size: the tags and the content, most of an event, are escaped once.
 */
public final class EventHasher {
    private final MessageDigest sha256;
    private final JsonWriter writer = new JsonWriter(4096);
    private final byte[] digest = new byte[32];
    /** Where the numbers, the tags and the content lie in the canonical form of the last hash. */
    private int numbersStart;

    private int tagsStart;
    private int contentStart;

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

    /** True when the event's id is the hash of its fields; then the event's wire JSON is made too. */
    public boolean idMatches(Event e) {
        hashInto(e.pubkey(), e.createdAt(), e.kind(), e.tags(), e.content());
        boolean matches = MessageDigest.isEqual(digest, e.idBytes());
        if (matches && !e.hasJson()) {
            e.adoptJson(wireJson(e));
        }
        return matches;
    }

    private static final byte[] ID = ascii("{\"id\":\"");
    private static final byte[] PUBKEY = ascii("\",\"pubkey\":\"");
    private static final byte[] CREATED_AT = ascii("\",\"created_at\":");
    private static final byte[] KIND = ascii(",\"kind\":");
    private static final byte[] TAGS = ascii(",\"tags\":");
    private static final byte[] CONTENT = ascii(",\"content\":");
    private static final byte[] SIG = ascii(",\"sig\":\"");
    private static final byte[] END = ascii("\"}");

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * {@link EventJson#writeEvent}'s bytes, cut from the canonical form just hashed: {@code
     * [0,"<pubkey>",<created_at>,<kind>,<tags>,"<content>"]} holds every field but the id and the
     * signature, already escaped.
     */
    private byte[] wireJson(Event e) {
        byte[] c = writer.array();
        int commaAfterCreatedAt = numbersStart;
        while (c[commaAfterCreatedAt] != ',') {
            commaAfterCreatedAt++;
        }
        int createdAtLength = commaAfterCreatedAt - numbersStart;
        int kindLength = tagsStart - 1 - (commaAfterCreatedAt + 1);
        int tagsLength = contentStart - 1 - tagsStart;
        int contentLength = writer.length() - 1 - contentStart;
        String id = e.id();
        String sig = e.sig();
        byte[] out = new byte
                [ID.length
                        + id.length()
                        + PUBKEY.length
                        + 64
                        + CREATED_AT.length
                        + createdAtLength
                        + KIND.length
                        + kindLength
                        + TAGS.length
                        + tagsLength
                        + CONTENT.length
                        + contentLength
                        + SIG.length
                        + sig.length()
                        + END.length];
        int n = put(ID, out, 0);
        n = putAscii(id, out, n);
        n = put(PUBKEY, out, n);
        System.arraycopy(c, 4, out, n, 64);
        n += 64;
        n = put(CREATED_AT, out, n);
        System.arraycopy(c, numbersStart, out, n, createdAtLength);
        n += createdAtLength;
        n = put(KIND, out, n);
        System.arraycopy(c, commaAfterCreatedAt + 1, out, n, kindLength);
        n += kindLength;
        n = put(TAGS, out, n);
        System.arraycopy(c, tagsStart, out, n, tagsLength);
        n += tagsLength;
        n = put(CONTENT, out, n);
        System.arraycopy(c, contentStart, out, n, contentLength);
        n += contentLength;
        n = put(SIG, out, n);
        n = putAscii(sig, out, n);
        put(END, out, n);
        return out;
    }

    private static int put(byte[] piece, byte[] out, int at) {
        System.arraycopy(piece, 0, out, at, piece.length);
        return at + piece.length;
    }

    private static int putAscii(String hex, byte[] out, int at) {
        for (int i = 0; i < hex.length(); i++) {
            out[at + i] = (byte) hex.charAt(i);
        }
        return at + hex.length();
    }

    private void hashInto(String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        JsonWriter w = writer.reset();
        w.ascii("[0,\"").ascii(pubkey).ascii("\",");
        numbersStart = w.length();
        w.number(createdAt).raw(',').number(kind).raw(',');
        tagsStart = w.length();
        EventJson.writeTags(w, tags);
        w.raw(',');
        contentStart = w.length();
        w.string(content).raw(']');
        sha256.update(writer.array(), 0, writer.length());
        try {
            sha256.digest(digest, 0, 32);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException(e);
        }
    }
}
