package io.tern.hls.swarm;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The origin key's endorsement of one session key for one stream instance, valid until {@code
 * notAfterEpochS} (C2PA §19.4's shape: a long-term key signs a short-lived Ed25519 key once, and
 * that key signs every object).
 *
 * <pre>
 * #EXT-X-TERN-SWARM-SESSION:KEY="...",NOT-AFTER=1796000000,ENDORSEMENT="..."
 * </pre>
 */
public final class SessionEndorsement {
    public static final String TAG = "#EXT-X-TERN-SWARM-SESSION:";

    private final byte[] sessionKey;
    private final long notAfterEpochS;
    private final byte[] endorsement;
    private final byte[] tagLine;

    public SessionEndorsement(byte[] sessionPublicRaw, long notAfterEpochS, byte[] endorsement) {
        this.sessionKey = sessionPublicRaw.clone();
        this.notAfterEpochS = notAfterEpochS;
        this.endorsement = endorsement.clone();
        this.tagLine = (TAG + "KEY=\"" + SwarmMessages.b64url(sessionKey) + "\",NOT-AFTER=" + notAfterEpochS
                        + ",ENDORSEMENT=\"" + SwarmMessages.b64url(endorsement) + "\"")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The session's raw public key. */
    public byte[] sessionKey() {
        return sessionKey.clone();
    }

    public long notAfterEpochS() {
        return notAfterEpochS;
    }

    public byte[] endorsement() {
        return endorsement.clone();
    }

    /** The playlist line, without its line break. */
    public String tag() {
        return new String(tagLine, StandardCharsets.US_ASCII);
    }

    /** The playlist line's ASCII bytes, shared: callers copy them and never write to them. */
    public byte[] tagBytes() {
        return tagLine;
    }

    /** Whether the origin key {@code originPublicRaw} endorsed this session key for this stream instance. */
    public boolean verifies(byte[] originPublicRaw, String stream, String instance) {
        return Ed25519.verify(
                originPublicRaw, SwarmMessages.session(stream, instance, sessionKey, notAfterEpochS), endorsement);
    }

    /** The endorsement a playlist line carries, or null if the line is not a well-formed one. */
    public static SessionEndorsement parseTag(String line) {
        if (line == null || !line.startsWith(TAG)) {
            return null;
        }
        Map<String, String> a = TagAttributes.parse(line.substring(TAG.length()));
        if (a == null) {
            return null;
        }
        byte[] key = SwarmMessages.fromB64url(TagAttributes.unquote(a.get("KEY")));
        byte[] sig = SwarmMessages.fromB64url(TagAttributes.unquote(a.get("ENDORSEMENT")));
        Long notAfter = TagAttributes.decimal(a.get("NOT-AFTER"));
        if (key == null || key.length != Ed25519.KEY_BYTES || sig == null || notAfter == null) {
            return null;
        }
        return new SessionEndorsement(key, notAfter, sig);
    }

    @Override
    public String toString() {
        return tag();
    }
}
