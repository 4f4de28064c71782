package io.tern.hls.swarm;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Map;

/**
 * A session key's signature over one object (docs/swarm-protocol.md): what a viewer checks
 * before it hands bytes from a peer to its player. Its playlist tag is written once, when the
 * object completes, and copied into every playlist that lists the object.
 *
 * <pre>
 * #EXT-X-TERN-ATTEST:KIND=part,MSN=7,PART=2,LENGTH=4242,SHA256="...",SIG="..."
 * </pre>
 */
public final class Attestation {
    public static final String TAG = "#EXT-X-TERN-ATTEST:";

    private final ObjectKind kind;
    private final long msn;
    private final int part;
    private final long byteLength;
    private final byte[] sha256;
    private final byte[] signature;
    private final byte[] tagLine;

    public Attestation(ObjectKind kind, long msn, int part, long byteLength, byte[] sha256, byte[] signature) {
        this.kind = kind;
        this.msn = msn;
        this.part = part;
        this.byteLength = byteLength;
        this.sha256 = sha256.clone();
        this.signature = signature.clone();
        this.tagLine = (TAG + "KIND=" + kind.wire + ",MSN=" + msn + ",PART=" + part + ",LENGTH=" + byteLength
                        + ",SHA256=\"" + SwarmMessages.b64url(sha256) + "\",SIG=\"" + SwarmMessages.b64url(signature)
                        + "\"")
                .getBytes(StandardCharsets.US_ASCII);
    }

    public ObjectKind kind() {
        return kind;
    }

    public long msn() {
        return msn;
    }

    public int part() {
        return part;
    }

    public long byteLength() {
        return byteLength;
    }

    public byte[] sha256() {
        return sha256.clone();
    }

    public byte[] signature() {
        return signature.clone();
    }

    /** The playlist line, without its line break. */
    public String tag() {
        return new String(tagLine, StandardCharsets.US_ASCII);
    }

    /** The playlist line's ASCII bytes, shared: callers copy them and never write to them. */
    public byte[] tagBytes() {
        return tagLine;
    }

    /**
     * Whether {@code bytes}, received for the object a viewer asked for ({@code kind} ... {@code
     * part}, known from the playlist and its URL, never from the sender), are the object this
     * attestation covers, signed by {@code sessionPublicRaw}. A forged, truncated, padded or
     * replayed object (from another part, rendition, stream or instance) fails.
     */
    public boolean verifies(
            byte[] sessionPublicRaw,
            ObjectKind kind,
            String stream,
            String rendition,
            String instance,
            long msn,
            int part,
            byte[] bytes) {
        if (kind != this.kind || msn != this.msn || part != this.part || bytes.length != byteLength) {
            return false;
        }
        byte[] digest = sha256(bytes);
        if (!MessageDigest.isEqual(digest, sha256)) {
            return false;
        }
        byte[] message = SwarmMessages.object(kind, stream, rendition, instance, msn, part, bytes.length, digest);
        return Ed25519.verify(sessionPublicRaw, message, signature);
    }

    /** The attestation a playlist line carries, or null if the line is not a well-formed one. */
    public static Attestation parseTag(String line) {
        if (line == null || !line.startsWith(TAG)) {
            return null;
        }
        Map<String, String> a = TagAttributes.parse(line.substring(TAG.length()));
        if (a == null) {
            return null;
        }
        ObjectKind kind = ObjectKind.ofWire(a.get("KIND"));
        byte[] sha = SwarmMessages.fromB64url(TagAttributes.unquote(a.get("SHA256")));
        byte[] sig = SwarmMessages.fromB64url(TagAttributes.unquote(a.get("SIG")));
        Long msn = TagAttributes.decimal(a.get("MSN"));
        Long part = TagAttributes.decimal(a.get("PART"));
        Long length = TagAttributes.decimal(a.get("LENGTH"));
        if (kind == null
                || sha == null
                || sha.length != 32
                || sig == null
                || msn == null
                || part == null
                || length == null
                || length < 0
                || part < -1
                || part > Integer.MAX_VALUE) {
            return null;
        }
        return new Attestation(kind, msn, part.intValue(), length, sha, sig);
    }

    static byte[] sha256(byte[] bytes) {
        return newSha256().digest(bytes);
    }

    static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Attestation other && Arrays.equals(tagLine, other.tagLine);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(tagLine);
    }

    @Override
    public String toString() {
        return tag();
    }
}
