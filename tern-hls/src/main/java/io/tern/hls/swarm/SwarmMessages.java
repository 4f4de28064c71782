package io.tern.hls.swarm;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The exact bytes the origin signs (docs/swarm-protocol.md, "Attestations"). Each message starts
 * with its own domain string, so a session endorsement can never pass for an object attestation
 * or the other way round, and every field that tells one object from another (kind, stream,
 * rendition, instance, media sequence number, part index, length, hash) is in it.
 */
public final class SwarmMessages {
    public static final String SESSION_DOMAIN = "tern-swarm-session-v1";
    public static final String OBJECT_DOMAIN = "tern-swarm-object-v1";

    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder B64URL_DECODER = Base64.getUrlDecoder();

    private SwarmMessages() {}

    /** What the origin key signs to endorse a session key for one stream instance. */
    public static byte[] session(String stream, String instance, byte[] sessionPublicRaw, long notAfterEpochS) {
        return (SESSION_DOMAIN + "\n" + stream + "\n" + instance + "\n" + b64url(sessionPublicRaw) + "\n"
                        + notAfterEpochS)
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What a session key signs for one object: a segment has part -1, an init segment msn and part -1.
     */
    public static byte[] object(
            ObjectKind kind,
            String stream,
            String rendition,
            String instance,
            long msn,
            int part,
            long byteLength,
            byte[] sha256) {
        return (OBJECT_DOMAIN + "\n" + kind.wire + "\n" + stream + "\n" + rendition + "\n" + instance + "\n" + msn
                        + "\n" + part + "\n" + byteLength + "\n" + b64url(sha256))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** base64url without padding (RFC 4648 §5), as keys, hashes and signatures are written. */
    public static String b64url(byte[] bytes) {
        return B64URL.encodeToString(bytes);
    }

    /** The bytes of an unpadded base64url string, or null if it is not one. */
    public static byte[] fromB64url(String text) {
        if (text == null || text.indexOf('=') >= 0) {
            return null;
        }
        try {
            return B64URL_DECODER.decode(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
